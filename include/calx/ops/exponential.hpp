/// @file ops/exponential.hpp
/// @brief exp, log, log1p, expm1, sqrt, rsqrt and pow.
#ifndef CALX_OPS_EXPONENTIAL_HPP
#define CALX_OPS_EXPONENTIAL_HPP

#include <calx/config.hpp>
#include <calx/detail/ops/scalar_math.hpp>
#include <calx/math.hpp>
#include <calx/op_traits.hpp>
#include <calx/ops/arithmetic.hpp>
#include <calx/ops/selection.hpp>
#include <calx/tracer.hpp>

#include <array>
#include <type_traits>

CALX_BEGIN_NAMESPACE

namespace detail {
/// Traits shared by real unary ops: a kernel and rules from `d(y, x)`, the derivative.
template <class Derived>
struct unary_real_op {
  static constexpr int arity = 1;
  static constexpr value_kind result = value_kind::real;
  static constexpr tracer jvp(const auto& y, const auto& x, const auto& t) { return t * Derived::d(y, x); }
  static constexpr std::array<tracer, 1> vjp(const auto& ct, const auto& y, const auto& x) {
    return {ct * Derived::d(y, x)};
  }
};
}  // namespace detail

template <>
struct op_traits<exp_op> : detail::unary_real_op<op_traits<exp_op>> {
  static constexpr const char* name = "exp";
  template <class T>
  CALX_HOST_DEVICE static T kernel(const T& x) { using detail::scalar::exp; return exp(x); }
  static constexpr tracer d(const auto& y, const auto&) { return y; }
};

template <>
struct op_traits<log_op> : detail::unary_real_op<op_traits<log_op>> {
  static constexpr const char* name = "log";
  template <class T>
  CALX_HOST_DEVICE static T kernel(const T& x) {
    if constexpr (std::is_floating_point_v<T>)
      return detail::scalar::log(x);
    else
      return detail::simd_math::log(x);
  }
  static constexpr tracer d(const auto&, const auto& x) { return 1.0 / x; }
};

template <>
struct op_traits<log1p_op> : detail::unary_real_op<op_traits<log1p_op>> {
  static constexpr const char* name = "log1p";
  template <class T>
  CALX_HOST_DEVICE static T kernel(const T& x) { using detail::scalar::log1p; return log1p(x); }
  static constexpr tracer d(const auto&, const auto& x) { return 1.0 / (x + 1.0); }
};

template <>
struct op_traits<expm1_op> : detail::unary_real_op<op_traits<expm1_op>> {
  static constexpr const char* name = "expm1";
  template <class T>
  CALX_HOST_DEVICE static T kernel(const T& x) { using detail::scalar::expm1; return expm1(x); }
  static constexpr tracer d(const auto& y, const auto&) { return y + 1.0; }
};

template <>
struct op_traits<sqrt_op> : detail::unary_real_op<op_traits<sqrt_op>> {
  static constexpr const char* name = "sqrt";
  template <class T>
  CALX_HOST_DEVICE static T kernel(const T& x) { using detail::scalar::sqrt; return sqrt(x); }
  static constexpr tracer d(const auto& y, const auto&) { return 0.5 / y; }
};

/// 1 / sqrt(x), computed exactly (not with a reciprocal-estimate instruction).
template <>
struct op_traits<rsqrt_op> : detail::unary_real_op<op_traits<rsqrt_op>> {
  static constexpr const char* name = "rsqrt";
  template <class T>
  CALX_HOST_DEVICE static T kernel(const T& x) { using detail::scalar::sqrt; return T(1) / sqrt(x); }
  static constexpr tracer d(const auto& y, const auto& x) { return -0.5 * (y / x); }
};

/// pow(x, p). As in JAX, d/dx is 0 where p == 0, and d/dp uses log(x) with x == 0
/// replaced by 1, so pow(0, p) has finite derivatives.
template <>
struct op_traits<pow_op> {
  static constexpr const char* name = "pow";
  static constexpr int arity = 2;
  static constexpr detail::value_kind result = detail::value_kind::real;
  template <class T>
  CALX_HOST_DEVICE static T kernel(const T& x, const T& p) {
    if constexpr (std::is_floating_point_v<T>)
      return detail::scalar::pow(x, p);
    else
      return detail::simd_math::pow(x, p);
  }
  static constexpr int simplify(auto& g, int* in) {
    if (g.is_constant(in[1], 1.0)) return in[0];
    if (g.is_constant(in[1], 2.0)) return detail::emit<mul_op>(detail::node_of(g, in[0]), detail::node_of(g, in[0])).id;
    return detail::no_simplification;
  }
  static constexpr tracer dx(const auto& x, const auto& p) {
    return where(p == 0.0, 0.0, p * calx::pow(x, p - 1.0));
  }
  static constexpr tracer dp(const auto& y, const auto& x) { return calx::log(where(x == 0.0, 1.0, x)) * y; }
  static constexpr tracer jvp(const auto& y, const auto& x, const auto& p, const auto& tx, const auto& tp) {
    tracer r = tx.is_zero() ? tracer{} : tx * dx(x, p);
    return tp.is_zero() ? r : r + tp * dp(y, x);
  }
  static constexpr std::array<tracer, 2> vjp(const auto& ct, const auto& y, const auto& x, const auto& p) {
    return {ct * dx(x, p), ct * dp(y, x)};
  }
};

CALX_END_NAMESPACE

#endif // CALX_OPS_EXPONENTIAL_HPP
