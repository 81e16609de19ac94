# cmake -DEXECUTABLE=<exe> -DGOLDEN=<file.out> [-DACTUAL=<file>] -P CompareOutput.cmake
#
# Runs EXECUTABLE and passes iff it exits with 0 and its stdout equals GOLDEN byte for
# byte. The actual output is written to ACTUAL (if given) for inspection. With the
# environment variable CALX_UPDATE_GOLDEN set, GOLDEN is overwritten with the actual
# output instead (review the diff before committing it).
cmake_minimum_required(VERSION 3.24)

foreach(var IN ITEMS EXECUTABLE GOLDEN)
  if(NOT DEFINED ${var} OR "${${var}}" STREQUAL "")
    message(FATAL_ERROR "CompareOutput.cmake: ${var} is not set")
  endif()
endforeach()

execute_process(COMMAND "${EXECUTABLE}" RESULT_VARIABLE result OUTPUT_VARIABLE actual ERROR_VARIABLE errors)
if(NOT result EQUAL 0)
  message(FATAL_ERROR "${EXECUTABLE} exited with ${result}\nstdout:\n${actual}\nstderr:\n${errors}")
endif()
if(ACTUAL)
  file(WRITE "${ACTUAL}" "${actual}")
endif()

if(DEFINED ENV{CALX_UPDATE_GOLDEN})
  file(WRITE "${GOLDEN}" "${actual}")
  message(STATUS "updated ${GOLDEN}")
  return()
endif()

if(NOT EXISTS "${GOLDEN}")
  message(FATAL_ERROR "no golden output ${GOLDEN}")
endif()
file(READ "${GOLDEN}" expected)
if(NOT actual STREQUAL expected)
  set(diff_text "")
  find_program(diff_program diff NO_CACHE)
  if(diff_program AND ACTUAL)
    execute_process(COMMAND "${diff_program}" -u "${GOLDEN}" "${ACTUAL}" OUTPUT_VARIABLE diff_text)
  else()
    set(diff_text "expected:\n${expected}\nactual:\n${actual}")
  endif()
  message(FATAL_ERROR "output of ${EXECUTABLE} differs from ${GOLDEN}:\n${diff_text}")
endif()
message(STATUS "output matches ${GOLDEN}")
