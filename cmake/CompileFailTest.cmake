# Message-checked compile-fail tests (STYLE point 24).
#
#   calx_add_compile_fail_tests(<dir> TARGET <target> [OK_TWINS <bool>] [LABELS <label>...])
#
# For every <dir>/<case>.cpp (a file that is not itself an ok twin):
#   - <case>.cpp must contain at least one line `// EXPECT: <regex>`;
#   - CTest `fail.<case>` passes iff compiling it FAILS and the compiler's output matches
#     every EXPECT regex (CMake regex syntax; `|` is alternation);
#   - its ok twin <case>.ok.cpp must exist, and CTest `fail.<case>.ok` passes iff it
#     compiles: this keeps each case honest, failing for the reason it names (OK_TWINS OFF:
#     the twins must exist but are not tested, for a second compiler's run).
# A case or twin that is missing is a configure error. The compiler is CMAKE_CXX_COMPILER
# in C++20 mode with -fsyntax-only and the include directories of <target> (with those of
# its dependencies); with g++ and clang, after the precompiled <calx/calx.hpp> that the build
# makes (calx_compile_fail_pch). They run in parallel like any test (each is one
# -fsyntax-only compile of a small program: about 0.5-1 s with the precompiled header, 3 s
# without).
#
# The compiler is run directly, not through a build target, so a test neither touches nor
# depends on the state of the build tree.

set(CALX_COMPILE_FAIL_RUNNER "${CMAKE_CURRENT_LIST_DIR}/RunCompileFailTest.cmake")

function(calx_add_compile_fail_tests dir)
  cmake_parse_arguments(PARSE_ARGV 1 arg "" "TARGET;OK_TWINS" "LABELS")
  if(NOT DEFINED arg_OK_TWINS)
    set(arg_OK_TWINS ON)
  endif()
  set(modes fail)
  if(arg_OK_TWINS)
    list(APPEND modes ok)
  endif()
  if(NOT arg_TARGET)
    message(FATAL_ERROR "calx_add_compile_fail_tests: TARGET is required")
  endif()
  if(NOT CMAKE_CXX_COMPILER_ID MATCHES "^(GNU|Clang|AppleClang)$")
    message(STATUS "calx: compile-fail tests need GCC or Clang (-fsyntax-only); skipped")
    return()
  endif()

  # Transitive: calx's own include directories and those of Boost::headers and xsimd.
  set(includes "$<JOIN:$<TARGET_PROPERTY:${arg_TARGET},INTERFACE_INCLUDE_DIRECTORIES>,|>")
  set(std_flag "${CMAKE_CXX20_STANDARD_COMPILE_OPTION}")
  if(NOT std_flag)
    set(std_flag "-std=c++20")
  endif()

  # One precompiled <calx/calx.hpp>, made by the runner with the cases' own command line
  # (MODE=pch), which every case includes first (-include): a case then costs its own
  # instantiations, not the ~3 s of parsing calx again. The runner compiles a case from its
  # text alone where the header is missing or older than a calx header, or where the case
  # defines a macro before including calx (CALX_DEVICE_ON_HOST).
  # g++ finds <header>.gch beside the header it includes; clang is given its <header>.pch
  # (-include-pch). The runner compiles a case again from its text when the compiler
  # crashed with the header (a crash is no verdict; clang 14 did on 3 cases, see
  # tests/CMakeLists.txt, CALX_TEST_PCH). With clang 14 the 230 cases take 1.6 CPU minutes
  # this way, 13.5 without the header.
  # Made once, by the first call; later calls (cases that need another library's headers
  # too, tests/ceres/fail) include the same header.
  get_property(pch_header GLOBAL PROPERTY calx_compile_fail_pch_header)
  get_property(pch_file GLOBAL PROPERTY calx_compile_fail_pch_file)
  if(NOT TARGET calx_compile_fail_pch AND CMAKE_CXX_COMPILER_ID MATCHES "^(GNU|Clang)$")
    set(pch_header "${CMAKE_CURRENT_BINARY_DIR}/fail_pch/calx.hpp")
    if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
      set(pch_file "${pch_header}.gch")
    else()
      set(pch_file "${pch_header}.pch")
    endif()
    file(CONFIGURE OUTPUT "${pch_header}" CONTENT "#include <calx/calx.hpp>\n")
    file(GLOB_RECURSE pch_depends CONFIGURE_DEPENDS "${PROJECT_SOURCE_DIR}/include/calx/*.hpp")
    add_custom_command(OUTPUT "${pch_file}"
      COMMAND "${CMAKE_COMMAND}" -DMODE=pch "-DSOURCE=${pch_header}" "-DOUTPUT=${pch_file}"
              "-DCOMPILER=${CMAKE_CXX_COMPILER}" "-DSTD_FLAG=${std_flag}" "-DINCLUDES=${includes}"
              -P "${CALX_COMPILE_FAIL_RUNNER}"
      DEPENDS "${pch_header}" ${pch_depends} "${CALX_COMPILE_FAIL_RUNNER}"
      COMMENT "Precompiling <calx/calx.hpp> for the compile-fail tests" VERBATIM)
    add_custom_target(calx_compile_fail_pch ALL DEPENDS "${pch_file}")
    set_property(GLOBAL PROPERTY calx_compile_fail_pch_header "${pch_header}")
    set_property(GLOBAL PROPERTY calx_compile_fail_pch_file "${pch_file}")
  endif()

  file(GLOB cases CONFIGURE_DEPENDS "${dir}/*.cpp")
  foreach(source IN LISTS cases)
    get_filename_component(file_name "${source}" NAME)
    if(file_name MATCHES "\\.ok\\.cpp$")
      string(REGEX REPLACE "\\.ok\\.cpp$" ".cpp" case_source "${source}")
      if(NOT EXISTS "${case_source}")
        message(FATAL_ERROR "calx: ok twin ${source} has no compile-fail case ${case_source}")
      endif()
      continue()
    endif()
    string(REGEX REPLACE "\\.cpp$" "" case "${file_name}")
    set(twin "${dir}/${case}.ok.cpp")
    if(NOT EXISTS "${twin}")
      message(FATAL_ERROR "calx: compile-fail case ${source} has no ok twin ${case}.ok.cpp")
    endif()
    file(STRINGS "${source}" expect_lines REGEX "^[ \t]*// EXPECT: ")
    if(NOT expect_lines)
      message(FATAL_ERROR "calx: compile-fail case ${source} has no `// EXPECT: <regex>` line")
    endif()

    foreach(mode IN LISTS modes)
      if(mode STREQUAL "fail")
        set(test_name "fail.${case}")
        set(test_source "${source}")
      else()
        set(test_name "fail.${case}.ok")
        set(test_source "${twin}")
      endif()
      add_test(NAME "${test_name}"
        COMMAND "${CMAKE_COMMAND}"
          "-DMODE=${mode}"
          "-DSOURCE=${test_source}"
          "-DCOMPILER=${CMAKE_CXX_COMPILER}"
          "-DSTD_FLAG=${std_flag}"
          "-DINCLUDES=${includes}"
          "-DPCH=${pch_header}"
          "-DPCH_FILE=${pch_file}"
          "-DHEADERS_DIR=${PROJECT_SOURCE_DIR}/include/calx"
          -P "${CALX_COMPILE_FAIL_RUNNER}")
      set_tests_properties("${test_name}" PROPERTIES
        LABELS "fail;${arg_LABELS}"
        TIMEOUT 300)
    endforeach()
  endforeach()
endfunction()
