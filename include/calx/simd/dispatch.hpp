/// @file simd/dispatch.hpp
/// @brief One binary for several instruction sets: `calx::simd_dispatch(f)` calls
/// `f(arch, args...)` for the best instruction set the running CPU has among those the
/// target was compiled for by CMake's `calx_simd_dispatch` (xsimd's dispatch over
/// `calx::simd_dispatch_archs`). docs/vmap.md, "Architectures".
#ifndef CALX_SIMD_DISPATCH_HPP
#define CALX_SIMD_DISPATCH_HPP

#include <calx/config.hpp>
#include <calx/detail/invalid_program.hpp>
#include <calx/detail/type_list.hpp>

#include <xsimd/xsimd.hpp>

#include <utility>

CALX_BEGIN_NAMESPACE

#ifdef CALX_SIMD_ARCHS
/// The instruction sets `calx_simd_dispatch(<target> ... ARCHS ...)` compiled the target's
/// kernels for, best first.
using simd_dispatch_archs = xsimd::arch_list<CALX_SIMD_ARCHS>;
#endif

/// `f` (a functor with `template <class Arch> R operator()(Arch, Args...) const`) made a
/// callable of `Args...` that runs `f(arch{}, args...)` for the best of
/// `calx::simd_dispatch_archs` the CPU supports. Each `f(arch, ...)` is instantiated in the
/// source `calx_simd_dispatch` compiled for that arch (CALX_SIMD_ARCH there).
template <class F>
auto simd_dispatch(F f) {
#ifdef CALX_SIMD_ARCHS
  return xsimd::dispatch<simd_dispatch_archs>(std::move(f));
#else
  static_assert(detail::always_false_v<F>,
                "calx::simd_dispatch: CALX_SIMD_ARCHS is not defined: this translation unit's target was not set "
                "up by calx_simd_dispatch(<target> SOURCES ... ARCHS ...) in CMake (docs/vmap.md, \"Architectures\")");
  return detail::invalid_program{};  // callable, and converts to anything: no second error
#endif
}

CALX_END_NAMESPACE

#endif  // CALX_SIMD_DISPATCH_HPP
