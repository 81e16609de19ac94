/// @file simd/batch.hpp
/// @brief xsimd batches as values of calx programs: `program(batch_x, batch_y)` evaluates
/// the generated code once for all lanes. Kernels reach xsimd's math by argument-dependent
/// lookup, so every op's kernel works on batches unchanged.
#ifndef CALX_SIMD_BATCH_HPP
#define CALX_SIMD_BATCH_HPP

#include <calx/config.hpp>
#include <calx/simd/math.hpp>
#include <calx/tree.hpp>

#include <xsimd/xsimd.hpp>

#include <type_traits>

CALX_BEGIN_NAMESPACE
namespace detail {
template <class T, class A>
struct is_extra_leaf<xsimd::batch<T, A>> : std::bool_constant<std::is_floating_point_v<T>> {};
}  // namespace detail
CALX_END_NAMESPACE

#endif // CALX_SIMD_BATCH_HPP
