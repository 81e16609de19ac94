/// @file ops/trigonometric.hpp
/// @brief sin, cos, tan, tanh and atan2.
#ifndef CALX_OPS_TRIGONOMETRIC_HPP
#define CALX_OPS_TRIGONOMETRIC_HPP

#include <calx/config.hpp>
#include <calx/detail/ops/scalar_math.hpp>
#include <calx/math.hpp>
#include <calx/op_traits.hpp>
#include <calx/ops/exponential.hpp>
#include <calx/tracer.hpp>

#include <array>
#include <type_traits>

CALX_BEGIN_NAMESPACE

template <>
struct op_traits<sin_op> : detail::unary_real_op<op_traits<sin_op>> {
  static constexpr const char* name = "sin";
  static constexpr bool calls_out_of_line = true;  // xsimd's range reduction
  template <class T>
  CALX_HOST_DEVICE static T kernel(const T& x) { using detail::scalar::sin; return sin(x); }
  static constexpr tracer d(const auto&, const auto& x) { return calx::cos(x); }
};

template <>
struct op_traits<cos_op> : detail::unary_real_op<op_traits<cos_op>> {
  static constexpr const char* name = "cos";
  static constexpr bool calls_out_of_line = true;  // xsimd's range reduction
  template <class T>
  CALX_HOST_DEVICE static T kernel(const T& x) { using detail::scalar::cos; return cos(x); }
  static constexpr tracer d(const auto&, const auto& x) { return -calx::sin(x); }
};

template <>
struct op_traits<tan_op> : detail::unary_real_op<op_traits<tan_op>> {
  static constexpr const char* name = "tan";
  static constexpr bool calls_out_of_line = true;  // xsimd's range reduction
  template <class T>
  CALX_HOST_DEVICE static T kernel(const T& x) { using detail::scalar::tan; return tan(x); }
  static constexpr tracer d(const auto& y, const auto&) { return 1.0 + y * y; }
};

template <>
struct op_traits<tanh_op> : detail::unary_real_op<op_traits<tanh_op>> {
  static constexpr const char* name = "tanh";
  template <class T>
  CALX_HOST_DEVICE static T kernel(const T& x) { using detail::scalar::tanh; return tanh(x); }
  static constexpr tracer d(const auto& y, const auto&) { return 1.0 - y * y; }
};

/// atan2(a, b), the angle of the point (b, a).
template <>
struct op_traits<atan2_op> {
  static constexpr const char* name = "atan2";
  static constexpr int arity = 2;
  static constexpr detail::value_kind result = detail::value_kind::real;
  template <class T>
  CALX_HOST_DEVICE static T kernel(const T& a, const T& b) {
    if constexpr (std::is_floating_point_v<T>)
      return detail::scalar::atan2(a, b);
    else
      return detail::simd_math::atan2(a, b);
  }
  static constexpr tracer jvp(const auto&, const auto& a, const auto& b, const auto& ta, const auto& tb) {
    return (ta * b - tb * a) / (a * a + b * b);
  }
  static constexpr std::array<tracer, 2> vjp(const auto& ct, const auto&, const auto& a, const auto& b) {
    tracer s = ct / (a * a + b * b);
    return {s * b, -(s * a)};
  }
};

CALX_END_NAMESPACE

#endif // CALX_OPS_TRIGONOMETRIC_HPP
