/// @file ops/hyperbolic.hpp
/// @brief sinh, cosh, asinh, acosh and atanh, written with exp, expm1, log, log1p and sqrt.
/// Each formula is the one whose value and whose derivative (calx differentiates the
/// formula) are both free of cancellation on its range; ranges are joined by where, and a
/// branch that would overflow (or have an infinite derivative) where it is not taken gets
/// its operand moved to a harmless point there ("double where"), so that no inf or NaN of
/// a branch not taken reaches a gradient as 0 · inf.
#ifndef CALX_OPS_HYPERBOLIC_HPP
#define CALX_OPS_HYPERBOLIC_HPP

#include <calx/config.hpp>
#include <calx/math.hpp>
#include <calx/op_traits.hpp>
#include <calx/ops/arithmetic.hpp>
#include <calx/ops/exponential.hpp>
#include <calx/ops/powers.hpp>
#include <calx/ops/selection.hpp>
#include <calx/tracer.hpp>

#include <array>

CALX_BEGIN_NAMESPACE

namespace detail {
inline constexpr double half_e_squared = 3.69452804946532511361521373028750390;

/// e^|x| / 2 for |x| > 20, up to where sinh and cosh overflow (710.5 in double, 89.4 in
/// float) although e^|x| overflows first: e^(|x| - 2) · e²/2, where |x| - 2 is exact.
/// (Not |x| - 1: xsimd's exp gives inf from 709.44 (88.38 in float) on, short of overflow.)
constexpr auto half_exp_abs(const auto& x) {
  using K = constant_t<decltype(x)>;
  return calx::exp(calx::abs(x) - K(2)) * K(half_e_squared);
}

/// f(x) for x > 0, -f(-x) for x < 0 and x itself at ±0 (keeping the sign of zero, with
/// derivative 1 there), for an odd f given as `r` = f(|x|).
constexpr auto odd_from_abs(const auto& x, const auto& r) {
  using K = constant_t<decltype(x)>;
  return calx::where(x < K(0), -r, calx::where(x > K(0), r, x));
}
}  // namespace detail

/// |x| <= 20: (expm1(x) - expm1(-x)) / 2, no cancellation (the terms have opposite signs)
/// and derivative (e^x + e^-x) / 2; beyond, ±e^|x| / 2 (e^-|x| is below half an ulp).
template <>
struct op_traits<sinh_op> {
  static constexpr const char* name = "sinh";
  static constexpr int arity = 1;
  static constexpr auto decomposition(const auto& x) {
    using K = detail::constant_t<decltype(x)>;
    const auto big = calx::abs(x) > K(20);
    const auto xs = calx::where(big, K(0), x);
    const auto near = K(0.5) * (calx::expm1(xs) - calx::expm1(-xs));
    const auto far = detail::half_exp_abs(x);
    return calx::where(big, calx::where(x < K(0), -far, far), near);
  }
  // Own rules, d sinh = cosh: one node where the decomposition's derivative is a dozen (and
  // the second derivative keeps its relative accuracy near 0, which expm1's does not).
  static constexpr tracer jvp(const auto&, const auto& x, const auto& t) { return t * calx::cosh(x); }
  static constexpr std::array<tracer, 1> vjp(const auto& ct, const auto&, const auto& x) { return {ct * calx::cosh(x)}; }
};

/// |x| < 1: 1 + 2 sinh²(x/2), whose derivative 2 sinh(x/2) cosh(x/2) keeps its accuracy
/// near 0, where that of (e^x + e^-x) / 2 cancels; |x| <= 20: (e^x + e^-x) / 2; beyond,
/// e^|x| / 2.
template <>
struct op_traits<cosh_op> {
  static constexpr const char* name = "cosh";
  static constexpr int arity = 1;
  static constexpr auto decomposition(const auto& x) {
    using K = detail::constant_t<decltype(x)>;
    const auto a = calx::abs(x);
    const auto small = a < K(1), big = a > K(20);
    const auto u = calx::sinh(K(0.5) * calx::where(small, a, K(0)));
    const auto near = K(1) + K(2) * (u * u);
    const auto am = calx::where(big, K(0), a);
    const auto mid = K(0.5) * (calx::exp(am) + calx::exp(-am));
    return calx::where(small, near, calx::where(big, detail::half_exp_abs(x), mid));
  }
  // Own rules, d cosh = sinh (as sinh's): `grad(cosh)` prints as one sinh, not three ranges.
  static constexpr tracer jvp(const auto&, const auto& x, const auto& t) { return t * calx::sinh(x); }
  static constexpr std::array<tracer, 1> vjp(const auto& ct, const auto&, const auto& x) { return {ct * calx::sinh(x)}; }
};

/// |x| <= 1e9: log1p(|x| + x²/(1 + sqrt(1 + x²))) (the argument is sqrt(1 + x²) - 1 + |x|
/// without cancellation); beyond, where x² could overflow, log|x| + ln 2 (the next term,
/// 1/(4x²), is below half an ulp). Odd, with asinh(±0) = ±0.
template <>
struct op_traits<asinh_op> {
  static constexpr const char* name = "asinh";
  static constexpr int arity = 1;
  static constexpr auto decomposition(const auto& x) {
    using K = detail::constant_t<decltype(x)>;
    const auto a = calx::abs(x);
    const auto big = a > K(1e9);
    const auto am = calx::where(big, K(0), a);
    const auto a2 = am * am;
    const auto near = calx::log1p(am + a2 / (K(1) + calx::sqrt(K(1) + a2)));
    const auto far = calx::log(calx::where(big, a, K(1))) + K(detail::ln2);
    return detail::odd_from_abs(x, calx::where(big, far, near));
  }
};

/// x >= 1. x <= 1e9: log1p(t + sqrt(t) sqrt(t + 2)) with t = x - 1 (exact near 1), whose
/// derivative 1/sqrt(x² - 1) is inf at x = 1 (sqrt(t (t + 2)) would give inf · 0 = NaN in
/// reverse mode); beyond, log x + ln 2. NaN below 1.
template <>
struct op_traits<acosh_op> {
  static constexpr const char* name = "acosh";
  static constexpr int arity = 1;
  static constexpr auto decomposition(const auto& x) {
    using K = detail::constant_t<decltype(x)>;
    const auto big = x > K(1e9);
    const auto t = calx::where(big, K(1), x - K(1));  // 1, not 0: sqrt'(0) is inf
    const auto near = calx::log1p(t + calx::sqrt(t) * calx::sqrt(t + K(2)));
    const auto far = calx::log(calx::where(big, x, K(1))) + K(detail::ln2);
    return calx::where(big, far, near);
  }
};

/// |x| <= 1: (log1p(x) - log1p(-x)) / 2. No cancellation (opposite signs), exactly odd,
/// ±inf at ±1, and derivative (1/(1 + x) + 1/(1 - x)) / 2, a sum of positive terms that
/// is inf at ±1. NaN beyond.
template <>
struct op_traits<atanh_op> {
  static constexpr const char* name = "atanh";
  static constexpr int arity = 1;
  static constexpr auto decomposition(const auto& x) {
    using K = detail::constant_t<decltype(x)>;
    return K(0.5) * (calx::log1p(x) - calx::log1p(-x));
  }
};

CALX_END_NAMESPACE

#endif // CALX_OPS_HYPERBOLIC_HPP
