/// @file ops/special.hpp
/// @brief sigmoid, erf and erfc.
#ifndef CALX_OPS_SPECIAL_HPP
#define CALX_OPS_SPECIAL_HPP

#include <calx/config.hpp>
#include <calx/detail/ops/scalar_math.hpp>
#include <calx/math.hpp>
#include <calx/op_traits.hpp>
#include <calx/ops/exponential.hpp>
#include <calx/tracer.hpp>

CALX_BEGIN_NAMESPACE

namespace detail {
inline constexpr double two_over_sqrt_pi = 1.12837916709551257389615890312154517;
}

/// 1 / (1 + exp(-x)).
template <>
struct op_traits<sigmoid_op> : detail::unary_real_op<op_traits<sigmoid_op>> {
  static constexpr const char* name = "sigmoid";
  template <class T>
  CALX_HOST_DEVICE static T kernel(const T& x) { using detail::scalar::exp; return T(1) / (T(1) + exp(-x)); }
  static constexpr tracer d(const auto& y, const auto&) { return y * (1.0 - y); }
};

template <>
struct op_traits<erf_op> : detail::unary_real_op<op_traits<erf_op>> {
  static constexpr const char* name = "erf";
  template <class T>
  CALX_HOST_DEVICE static T kernel(const T& x) {
    if constexpr (std::is_floating_point_v<T>)
      return detail::scalar::erf(x);
    else
      return detail::simd_math::erf(x);
  }
  static constexpr tracer d(const auto&, const auto& x) { return detail::two_over_sqrt_pi * calx::exp(-(x * x)); }
};

template <>
struct op_traits<erfc_op> : detail::unary_real_op<op_traits<erfc_op>> {
  static constexpr const char* name = "erfc";
  template <class T>
  CALX_HOST_DEVICE static T kernel(const T& x) {
    if constexpr (std::is_floating_point_v<T>)
      return detail::scalar::erfc(x);
    else
      return detail::simd_math::erfc(x);
  }
  static constexpr tracer d(const auto&, const auto& x) { return -detail::two_over_sqrt_pi * calx::exp(-(x * x)); }
};

CALX_END_NAMESPACE

#endif // CALX_OPS_SPECIAL_HPP
