# Builds and runs a consumer project of calx from scratch (STYLE point 28).
#
#   cmake -DMODE=subdir|install|build_tree -DCALX_SOURCE_DIR=<repo> -DWORK_DIR=<dir>
#         -DCXX_COMPILER=<c++> -DGENERATOR=<gen> [-DMAKE_PROGRAM=<make>] [-DBUILD_TYPE=<cfg>]
#         [-DCALX_VERSION=<x.y.z>]
#         -P run_consumer.cmake
#
#   subdir      tests/cmake/subdir: add_subdirectory(<repo>)
#   install     configure <repo> alone, cmake --install it into WORK_DIR/prefix, then
#               tests/cmake/install: find_package(calx CONFIG REQUIRED) from that prefix;
#               and, if pkg-config is installed, compile consumer.cpp with `pkg-config
#               --cflags --libs calx` against the same prefix.
#   build_tree  tests/cmake/install against calx's build tree (export()), no install.
#   dispatch    tests/cmake/dispatch: add_subdirectory(<repo>), no -march flag, kernels
#               compiled per instruction set by calx_simd_dispatch and picked at run time.
cmake_minimum_required(VERSION 3.24)

foreach(var IN ITEMS MODE CALX_SOURCE_DIR WORK_DIR CXX_COMPILER GENERATOR)
  if(NOT DEFINED ${var} OR "${${var}}" STREQUAL "")
    message(FATAL_ERROR "run_consumer.cmake: ${var} is not set")
  endif()
endforeach()
if(NOT BUILD_TYPE)
  set(BUILD_TYPE Release)
endif()

set(here "${CMAKE_CURRENT_LIST_DIR}")
file(REMOVE_RECURSE "${WORK_DIR}")
file(MAKE_DIRECTORY "${WORK_DIR}")

set(common_args -G "${GENERATOR}" "-DCMAKE_CXX_COMPILER=${CXX_COMPILER}" "-DCMAKE_BUILD_TYPE=${BUILD_TYPE}"
                -DCMAKE_FIND_PACKAGE_NO_PACKAGE_REGISTRY=ON)
if(MAKE_PROGRAM)
  list(APPEND common_args "-DCMAKE_MAKE_PROGRAM=${MAKE_PROGRAM}")
endif()

function(step)
  list(JOIN ARGN " " line)
  message(STATUS "$ ${line}")
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE result OUTPUT_VARIABLE out ERROR_VARIABLE out)
  if(NOT result EQUAL 0)
    message(FATAL_ERROR "failed (${result}):\n${out}")
  endif()
  set(step_output "${out}" PARENT_SCOPE)
endfunction()

set(calx_only -DCALX_BUILD_TESTS=OFF -DCALX_BUILD_EXAMPLES=OFF -DCALX_BUILD_BENCHMARKS=OFF
              -DCALX_VERIFY_HEADERS=OFF)

if(MODE STREQUAL "subdir")
  step("${CMAKE_COMMAND}" -S "${here}/subdir" -B "${WORK_DIR}/build" ${common_args}
       "-DCALX_SOURCE_DIR=${CALX_SOURCE_DIR}")
elseif(MODE STREQUAL "install")
  set(prefix "${WORK_DIR}/prefix")
  # Configured for another prefix: `cmake --install --prefix` must move everything,
  # calxConfig.cmake and calx.pc included.
  step("${CMAKE_COMMAND}" -S "${CALX_SOURCE_DIR}" -B "${WORK_DIR}/calx-build" ${common_args} ${calx_only}
       "-DCMAKE_INSTALL_PREFIX=${WORK_DIR}/configured-prefix")
  step("${CMAKE_COMMAND}" --build "${WORK_DIR}/calx-build" --config "${BUILD_TYPE}")
  step("${CMAKE_COMMAND}" --install "${WORK_DIR}/calx-build" --config "${BUILD_TYPE}" --prefix "${prefix}")
  if(EXISTS "${WORK_DIR}/configured-prefix")
    message(FATAL_ERROR "cmake --install --prefix ${prefix} wrote into the configured prefix")
  endif()
  foreach(f IN ITEMS include/calx/calx.hpp include/calx/detail/ir/graph.hpp share/cmake/calx/calxConfig.cmake
                     share/cmake/calx/calxConfigVersion.cmake share/cmake/calx/calxTargets.cmake
                     share/pkgconfig/calx.pc)
    if(NOT EXISTS "${prefix}/${f}")
      message(FATAL_ERROR "install did not create ${prefix}/${f}")
    endif()
  endforeach()
  step("${CMAKE_COMMAND}" -S "${here}/install" -B "${WORK_DIR}/build" ${common_args}
       "-DCMAKE_PREFIX_PATH=${prefix}" "-DCALX_EXPECTED_DIR=${prefix}")
elseif(MODE STREQUAL "dispatch")
  step("${CMAKE_COMMAND}" -S "${here}/dispatch" -B "${WORK_DIR}/build" ${common_args}
       "-DCALX_SOURCE_DIR=${CALX_SOURCE_DIR}")
elseif(MODE STREQUAL "build_tree")
  step("${CMAKE_COMMAND}" -S "${CALX_SOURCE_DIR}" -B "${WORK_DIR}/calx-build" ${common_args} ${calx_only})
  step("${CMAKE_COMMAND}" -S "${here}/install" -B "${WORK_DIR}/build" ${common_args}
       "-Dcalx_DIR=${WORK_DIR}/calx-build" "-DCALX_EXPECTED_DIR=${WORK_DIR}/calx-build")
else()
  message(FATAL_ERROR "run_consumer.cmake: unknown MODE '${MODE}'")
endif()

step("${CMAKE_COMMAND}" --build "${WORK_DIR}/build" --config "${BUILD_TYPE}")
find_program(consumer NAMES consumer PATHS "${WORK_DIR}/build" "${WORK_DIR}/build/${BUILD_TYPE}"
             NO_DEFAULT_PATH NO_CACHE)
if(NOT consumer)
  message(FATAL_ERROR "no consumer executable under ${WORK_DIR}/build")
endif()
step("${consumer}")
message(STATUS "${step_output}")

if(MODE STREQUAL "install")
  find_program(pkg_config NAMES pkg-config pkgconf NO_CACHE)
  if(NOT pkg_config)
    message(STATUS "pkg-config not found: calx.pc not checked")
    return()
  endif()
  set(ENV{PKG_CONFIG_PATH} "${prefix}/share/pkgconfig")
  step("${pkg_config}" --modversion calx)
  string(STRIP "${step_output}" version)
  if(CALX_VERSION AND NOT version STREQUAL CALX_VERSION)
    message(FATAL_ERROR "pkg-config says calx ${version}, expected ${CALX_VERSION}")
  endif()
  step("${pkg_config}" --cflags --libs calx)
  string(STRIP "${step_output}" cflags)
  string(FIND "${cflags}" "-I${prefix}/include" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "pkg-config --cflags --libs calx gave '${cflags}', expected -I${prefix}/include")
  endif()
  # The raised constant-evaluation limit for the configured compiler travels in calx.pc.
  if(CXX_COMPILER MATCHES "clang")
    set(limit_flag "-fconstexpr-steps=")
  else()
    set(limit_flag "-fconstexpr-ops-limit=")
  endif()
  string(FIND "${cflags}" "${limit_flag}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "pkg-config --cflags calx gave '${cflags}', without ${limit_flag}")
  endif()
  separate_arguments(cflags UNIX_COMMAND "${cflags}")
  step("${CXX_COMPILER}" -std=c++20 ${cflags} "${here}/consumer.cpp" -o "${WORK_DIR}/consumer-pkg-config")
  step("${WORK_DIR}/consumer-pkg-config")
  message(STATUS "pkg-config: ${step_output}")
endif()
