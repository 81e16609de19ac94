# cmake -DMODE=fail|ok -DSOURCE=<file.cpp> -DCOMPILER=<c++> -DSTD_FLAG=-std=c++20
#       -DINCLUDES=<dir>|<dir>... -P RunCompileFailTest.cmake
#
# MODE=fail: passes iff SOURCE does not compile and the compiler's output matches every
#            `// EXPECT: <regex>` line of SOURCE; with a line `// ERRORS: <n>`, the output
#            must also hold exactly n errors (one message, no follow-on errors).
# MODE=ok:   passes iff SOURCE compiles.
# MODE=pch:  precompiles the header SOURCE into OUTPUT with the same command line.
# With -DPCH=<header> -DPCH_FILE=<its precompiled form> -DHEADERS_DIR=<calx's headers>, a
# case is compiled after `-include <header>` (g++, <header>.gch) or `-include-pch
# <header>.pch` (clang) when the precompiled form exists, is newer than
# every calx header, and the case defines no macro (a #define line) that calx would read.
# See CompileFailTest.cmake.
cmake_minimum_required(VERSION 3.24)

foreach(var IN ITEMS MODE SOURCE COMPILER STD_FLAG)
  if(NOT DEFINED ${var} OR "${${var}}" STREQUAL "")
    message(FATAL_ERROR "RunCompileFailTest.cmake: ${var} is not set")
  endif()
endforeach()

set(include_flags "")
string(REPLACE "|" ";" include_dirs "${INCLUDES}")
list(REMOVE_DUPLICATES include_dirs)
foreach(d IN LISTS include_dirs)
  if(NOT d STREQUAL "")
    list(APPEND include_flags "-I${d}")
  endif()
endforeach()

if(MODE STREQUAL "pch")
  execute_process(COMMAND "${COMPILER}" "${STD_FLAG}" -fdiagnostics-color=never ${include_flags}
                          -x c++-header "${SOURCE}" -o "${OUTPUT}"
                  RESULT_VARIABLE result)
  if(NOT result EQUAL 0)
    message(FATAL_ERROR "could not precompile ${SOURCE}")
  endif()
  return()
endif()

set(pch_flags "")
if(NOT "${PCH}" STREQUAL "" AND EXISTS "${PCH_FILE}")
  set(use_pch TRUE)
  file(STRINGS "${SOURCE}" defines REGEX "^[ \t]*#[ \t]*define ")
  if(defines)
    set(use_pch FALSE)
  else()
    file(GLOB_RECURSE headers "${HEADERS_DIR}/*.hpp")
    foreach(h IN LISTS headers)
      if("${h}" IS_NEWER_THAN "${PCH_FILE}")
        set(use_pch FALSE)  # a stale precompiled header: compile from the text
        break()
      endif()
    endforeach()
  endif()
  if(use_pch AND PCH_FILE MATCHES "\\.pch$")
    set(pch_flags -include-pch "${PCH_FILE}")  # clang
  elseif(use_pch)
    set(pch_flags -include "${PCH}")  # g++ reads <header>.gch
  endif()
endif()

# Compiles SOURCE with the extra flags given (the precompiled header's, or none) into
# `command`, `result` and `output`.
macro(compile_case)
  set(command "${COMPILER}" "${STD_FLAG}" -fsyntax-only -fdiagnostics-color=never ${include_flags} ${ARGN} "${SOURCE}")
  execute_process(COMMAND ${command}
    RESULT_VARIABLE result
    OUTPUT_VARIABLE output
    ERROR_VARIABLE output)
endmacro()

compile_case(${pch_flags})
# The header only saves time, so a crash with it is no verdict: the case is compiled again
# from its text, and a crash there fails it. (clang 14 crashed on 3 of the 230 cases with
# it until calx stopped writing type aliases as decltype of a lambda, tests/CMakeLists.txt.)
if(pch_flags AND output MATCHES "PLEASE submit a bug report|frontend command failed")
  message(STATUS "the compiler crashed with the precompiled header; compiling from the text")
  compile_case()
endif()
list(JOIN command " " command_line)

if(MODE STREQUAL "ok")
  if(NOT result EQUAL 0)
    message(FATAL_ERROR "ok twin failed to compile (it must compile):\n${command_line}\n${output}")
  endif()
  message(STATUS "compiled, as expected: ${SOURCE}")
  return()
endif()

if(result EQUAL 0)
  message(FATAL_ERROR "compiled, but it must fail to compile:\n${command_line}\n${output}")
endif()
file(STRINGS "${SOURCE}" expect_lines REGEX "^[ \t]*// EXPECT: ")
if(NOT expect_lines)
  message(FATAL_ERROR "${SOURCE} has no `// EXPECT: <regex>` line")
endif()
foreach(line IN LISTS expect_lines)
  string(REGEX REPLACE "^[ \t]*// EXPECT: " "" regex "${line}")
  string(STRIP "${regex}" regex)
  if(NOT output MATCHES "${regex}")
    message(FATAL_ERROR "failed to compile, but the output does not match `${regex}`:\n"
                        "${command_line}\n${output}")
  endif()
  message(STATUS "failed to compile with a message matching `${regex}`")
endforeach()
file(STRINGS "${SOURCE}" count_lines REGEX "^[ \t]*// ERRORS: [0-9]+")
if(count_lines)
  list(GET count_lines 0 count_line)
  string(REGEX REPLACE "^[ \t]*// ERRORS: ([0-9]+).*" "\\1" expected_errors "${count_line}")
  string(REPLACE ";" "," plain_output "${output}")  # a ';' would split a list element
  string(REGEX MATCHALL "[^\n]*: error: [^\n]*" error_lines "${plain_output}")
  list(LENGTH error_lines errors)
  if(NOT errors EQUAL expected_errors)
    message(FATAL_ERROR "failed to compile with ${errors} errors; exactly ${expected_errors} expected:\n"
                        "${command_line}\n${output}")
  endif()
  message(STATUS "failed to compile with exactly ${errors} error(s)")
endif()
