# Runs EXECUTABLE and passes only if it stops with an error (a non-zero exit or a signal,
# such as the abort of a failed assertion) and its standard error matches EXPECT.
#   cmake -DEXECUTABLE=<path> -DEXPECT=<regex> -P ExpectAbort.cmake
execute_process(COMMAND "${EXECUTABLE}" RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(rc EQUAL 0)
  message(FATAL_ERROR "${EXECUTABLE} exited normally; it should have stopped with an error")
endif()
if(NOT err MATCHES "${EXPECT}")
  message(FATAL_ERROR "${EXECUTABLE} stopped (${rc}) without the expected message /${EXPECT}/:\n${err}")
endif()
message(STATUS "stopped as expected (${rc}): ${err}")
