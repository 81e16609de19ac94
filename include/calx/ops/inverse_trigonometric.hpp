/// @file ops/inverse_trigonometric.hpp
/// @brief asin, acos and atan, written with atan2 and sqrt.
#ifndef CALX_OPS_INVERSE_TRIGONOMETRIC_HPP
#define CALX_OPS_INVERSE_TRIGONOMETRIC_HPP

#include <calx/config.hpp>
#include <calx/math.hpp>
#include <calx/op_traits.hpp>
#include <calx/ops/arithmetic.hpp>
#include <calx/ops/exponential.hpp>
#include <calx/ops/trigonometric.hpp>
#include <calx/tracer.hpp>

CALX_BEGIN_NAMESPACE

namespace detail {
/// sqrt(1 - x²) for |x| <= 1, as sqrt(1 - x) sqrt(1 + x): 1 - x and 1 + x are exact near
/// ±1, where 1 - x·x would cancel; and as a product of two roots the derivative at ±1 is
/// ∓inf in both modes (sqrt((1 - x)(1 + x)) gives inf · 0 = NaN in reverse mode there).
constexpr auto cos_of_asin(const auto& x) {
  using K = constant_t<decltype(x)>;
  return calx::sqrt(K(1) - x) * calx::sqrt(K(1) + x);
}
}  // namespace detail

/// |x| <= 1: atan2(x, sqrt(1 - x²)); asin'(±1) = inf. NaN beyond.
template <>
struct op_traits<asin_op> {
  static constexpr const char* name = "asin";
  static constexpr int arity = 1;
  static constexpr auto decomposition(const auto& x) { return calx::atan2(x, detail::cos_of_asin(x)); }
};

/// |x| <= 1: atan2(sqrt(1 - x²), x), accurate near 1 where π/2 - asin(x) would cancel;
/// acos'(±1) = -inf. NaN beyond.
template <>
struct op_traits<acos_op> {
  static constexpr const char* name = "acos";
  static constexpr int arity = 1;
  static constexpr auto decomposition(const auto& x) { return calx::atan2(detail::cos_of_asin(x), x); }
};

/// atan2(x, 1); atan(±inf) = ±π/2.
template <>
struct op_traits<atan_op> {
  static constexpr const char* name = "atan";
  static constexpr int arity = 1;
  static constexpr auto decomposition(const auto& x) {
    using K = detail::constant_t<decltype(x)>;
    return calx::atan2(x, K(1));
  }
};

CALX_END_NAMESPACE

#endif // CALX_OPS_INVERSE_TRIGONOMETRIC_HPP
