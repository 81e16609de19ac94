/// @file ops/smooth.hpp
/// @brief softplus, logaddexp, clamp and relu: the smooth (and clipped) maxima of machine
/// learning code, written with exp, log1p, min, max and where.
#ifndef CALX_OPS_SMOOTH_HPP
#define CALX_OPS_SMOOTH_HPP

#include <calx/config.hpp>
#include <calx/math.hpp>
#include <calx/op_traits.hpp>
#include <calx/ops/arithmetic.hpp>
#include <calx/ops/exponential.hpp>
#include <calx/ops/selection.hpp>
#include <calx/tracer.hpp>

#include <array>

CALX_BEGIN_NAMESPACE

/// log(1 + e^x): log1p(exp(x)) up to x = 40, x beyond (the difference, e^-x, is below
/// half an ulp in double and float), with exp's operand guarded there so that its overflow
/// reaches neither value nor gradient. The derivative is sigmoid(x).
template <>
struct op_traits<softplus_op> {
  static constexpr const char* name = "softplus";
  static constexpr int arity = 1;
  static constexpr auto decomposition(const auto& x) {
    using K = detail::constant_t<decltype(x)>;
    const auto big = x > K(40);
    return calx::where(big, x, calx::log1p(calx::exp(calx::where(big, K(0), x))));
  }
};

/// log(e^a + e^b) = max + log1p(exp(-|a - b|)) (JAX's jnp.logaddexp). The larger operand
/// is picked by a >= b rather than by max, so that at a tie the gradient is (1/2, 1/2)
/// (max's own tie rule and abs'(0) = 1 would give (0, 1)). Where a - b is NaN (a NaN, or
/// equal infinities) the result is (a + b) / 2: ±inf for logaddexp(±inf, ±inf), with
/// gradient (1/2, 1/2), and NaN for a NaN; a - b is replaced by 0 in the other branch.
template <>
struct op_traits<logaddexp_op> {
  static constexpr const char* name = "logaddexp";
  static constexpr int arity = 2;
  static constexpr auto decomposition(const auto& a, const auto& b) {
    using K = detail::constant_t<decltype(a)>;
    const auto d = a - b;
    const auto undefined = d != d;
    const auto m = calx::where(a >= b, a, b);
    const auto r = m + calx::log1p(calx::exp(-calx::abs(calx::where(undefined, K(0), d))));
    return calx::where(undefined, K(0.5) * (a + b), r);
  }
};

/// min(max(x, lo), hi) (JAX's jnp.clip): derivative 1 in x strictly inside, 1 in the
/// bound that is taken outside, and max's and min's 1/2-1/2 split at a tie. hi when
/// lo > hi; NaN for a NaN x.
template <>
struct op_traits<clamp_op> {
  static constexpr const char* name = "clamp";
  static constexpr int arity = 3;
  static constexpr auto decomposition(const auto& x, const auto& lo, const auto& hi) {
    return calx::min(calx::max(x, lo), hi);
  }
};

/// max(x, 0) (jax.nn.relu): NaN for a NaN, 0 for -inf. Its own rules give the derivative
/// JAX gives, 1 for x > 0 and 0 elsewhere, 0 at x = 0 too (max's tie rule would give 1/2).
template <>
struct op_traits<relu_op> {
  static constexpr const char* name = "relu";
  static constexpr int arity = 1;
  static constexpr auto decomposition(const auto& x) {
    using K = detail::constant_t<decltype(x)>;
    return calx::max(x, K(0));
  }
  static constexpr tracer jvp(const auto&, const auto& x, const auto& t) { return calx::where(x > 0.0, t, 0.0); }
  static constexpr std::array<tracer, 1> vjp(const auto& ct, const auto&, const auto& x) {
    return {calx::where(x > 0.0, ct, 0.0)};
  }
};

CALX_END_NAMESPACE

#endif // CALX_OPS_SMOOTH_HPP
