# calx_simd_dispatch(<target> SOURCES <source>... ARCHS <arch>...)
#
# Compiles each of SOURCES once per instruction set of ARCHS, with that instruction set's
# flags and CALX_SIMD_ARCH defined as its xsimd architecture (xsimd::avx2, ...), and links
# every copy into <target>; every translation unit of <target> gets CALX_SIMD_ARCHS, the
# list best first, which <calx/simd/dispatch.hpp> makes `calx::simd_dispatch_archs`. A source
# instantiates its kernels for CALX_SIMD_ARCH; `calx::simd_dispatch(f)` then calls the copy
# for the best instruction set the running CPU has (xsimd's dispatch). The rest of the
# target is compiled for the baseline: no -march anywhere. docs/vmap.md, "Architectures".
#
# ARCHS: sse2 sse3 ssse3 sse4_1 sse4_2 avx avx2 fma3_avx2 avx512f avx512bw (x86-64, GCC or
# Clang). The baseline (sse2) should be among them: it is what a CPU without the others runs.
# Each copy is an OBJECT library <target>_simd_<arch> with <target>'s include directories,
# definitions, options and link libraries' usage requirements.
include_guard(GLOBAL)

function(calx_simd_dispatch target)
  cmake_parse_arguments(PARSE_ARGV 1 arg "" "" "SOURCES;ARCHS")
  if(NOT TARGET ${target})
    message(FATAL_ERROR "calx_simd_dispatch: ${target} is not a target (add_executable or add_library it first)")
  endif()
  if(NOT arg_SOURCES OR NOT arg_ARCHS)
    message(FATAL_ERROR "calx_simd_dispatch(${target}): give SOURCES <file>... and ARCHS <arch>...")
  endif()
  if(NOT CMAKE_CXX_COMPILER_ID MATCHES "^(GNU|Clang|AppleClang)$")
    message(FATAL_ERROR "calx_simd_dispatch: instruction-set flags are known for GCC and Clang, not ${CMAKE_CXX_COMPILER_ID}")
  endif()
  # xsimd's x86 architectures, worst to best, and the flags that enable each.
  set(known sse2 sse3 ssse3 sse4_1 sse4_2 avx avx2 fma3_avx2 avx512f avx512bw)
  set(flags_sse2 "")
  set(flags_sse3 -msse3)
  set(flags_ssse3 -mssse3)
  set(flags_sse4_1 -msse4.1)
  set(flags_sse4_2 -msse4.2)
  set(flags_avx -mavx)
  set(flags_avx2 -mavx2)
  set(flags_fma3_avx2 -mavx2 -mfma)
  set(flags_avx512f -mavx512f)
  set(flags_avx512bw -mavx512f -mavx512cd -mavx512dq -mavx512bw)
  set(type_fma3_avx2 "xsimd::fma3<xsimd::avx2>")

  # The copies are made and linked worst first: an inline function two copies both emit (a
  # helper not templated on the architecture) is merged by the linker, which keeps the first
  # definition it reads (GNU ld, gold, lld): the least capable emitting copy's, which every
  # copy that calls it can run. CALX_SIMD_ARCHS lists them best first, as xsimd's dispatch
  # walks the list.
  set(worst_first "")
  foreach(arch IN LISTS known)
    if(arch IN_LIST arg_ARCHS)
      list(APPEND worst_first ${arch})
    endif()
  endforeach()
  set(types "")
  foreach(arch IN LISTS worst_first)
    if(DEFINED type_${arch})
      set(type "${type_${arch}}")
    else()
      set(type "xsimd::${arch}")
    endif()
    list(PREPEND types "${type}")
    set(copy ${target}_simd_${arch})
    add_library(${copy} OBJECT ${arg_SOURCES})
    target_compile_options(${copy} PRIVATE ${flags_${arch}} $<TARGET_PROPERTY:${target},COMPILE_OPTIONS>)
    target_compile_definitions(${copy} PRIVATE "CALX_SIMD_ARCH=${type}" $<TARGET_PROPERTY:${target},COMPILE_DEFINITIONS>)
    target_include_directories(${copy} PRIVATE $<TARGET_PROPERTY:${target},INCLUDE_DIRECTORIES>)
    target_compile_features(${copy} PRIVATE $<TARGET_PROPERTY:${target},COMPILE_FEATURES>)
    target_link_libraries(${copy} PRIVATE calx::calx $<TARGET_PROPERTY:${target},LINK_LIBRARIES>)
    target_sources(${target} PRIVATE $<TARGET_OBJECTS:${copy}>)
  endforeach()
  list(JOIN types "," archs)
  target_compile_definitions(${target} PRIVATE "CALX_SIMD_ARCHS=${archs}")
  target_link_libraries(${target} PRIVATE calx::calx)
endfunction()
