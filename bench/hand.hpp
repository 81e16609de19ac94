/// @file bench/hand.hpp
/// @brief The hand-written baselines: value and analytic gradient of Rosenbrock and of the
/// Black-Scholes call price. One template serves float, double and xsimd batches of both:
/// math functions are called unqualified after `using std::...`, so a batch finds xsimd's
/// (xsimd::erfc, exp, log, sqrt) by argument-dependent lookup.
#ifndef CALX_BENCH_HAND_HPP
#define CALX_BENCH_HAND_HPP

#include "functions.hpp"

#include <calx/simd/math.hpp>

#include <cmath>
#include <type_traits>

#if defined(__GNUC__) || defined(__clang__)
#define CALX_BENCH_INLINE inline __attribute__((always_inline))
#else
#define CALX_BENCH_INLINE inline
#endif

namespace calx_bench {

template <class V>
struct rosenbrock_result {
  V value, dx, dy;
};

/// f = (1 - x)^2 + 100 (y - x^2)^2, df/dx = -2 (1 - x) - 400 x (y - x^2), df/dy = 200 (y - x^2).
template <class V>
CALX_BENCH_INLINE rosenbrock_result<V> rosenbrock_hand(const V& x, const V& y) {
  const V a = V(1) - x;
  const V b = y - x * x;
  return {a * a + V(100) * (b * b), V(-2) * a - V(400) * (x * b), V(200) * b};
}

template <class V>
struct black_scholes_result {
  V value, dS, dK, dT, dr, dsigma;
};

/// The call price and its closed-form sensitivities (delta, dC/dK, theta in T, rho, vega),
/// using S n(d1) = K exp(-rT) n(d2), so one density evaluation serves vega and theta.
template <class V>
CALX_BENCH_INLINE black_scholes_result<V> black_scholes_hand(const V& S, const V& K, const V& T, const V& r,
                                                              const V& sigma) {
  using std::erfc;
  using std::exp;
  using std::log;
  using std::sqrt;
  const V sqrt_t = sqrt(T);
  const V vol = sigma * sqrt_t;
  const V d1 = (log(S / K) + (r + V(0.5) * (sigma * sigma)) * T) / vol;
  const V d2 = d1 - vol;
  const V disc = exp(-(r * T));
  const V nd1 = V(0.5) * erfc(-d1 * V(inv_sqrt2));
  const V nd2 = V(0.5) * erfc(-d2 * V(inv_sqrt2));
  const V k_disc_nd2 = K * disc * nd2;
  const V s_pdf = S * (V(inv_sqrt_2pi) * exp(V(-0.5) * (d1 * d1)));  // S n(d1)
  black_scholes_result<V> res;
  res.value = S * nd1 - k_disc_nd2;
  res.dS = nd1;
  res.dK = -(disc * nd2);
  res.dT = V(0.5) * s_pdf * sigma / sqrt_t + r * k_disc_nd2;
  res.dr = T * k_disc_nd2;
  res.dsigma = s_pdf * sqrt_t;
  return res;
}

/// libm on scalars, xsimd's own kernels on batches (found by argument-dependent lookup).
struct library_math {
  template <class V>
  static CALX_BENCH_INLINE V erfc(const V& x) {
    using std::erfc;
    return erfc(x);
  }
  template <class V>
  static CALX_BENCH_INLINE V log(const V& x) {
    using std::log;
    return log(x);
  }
};

/// calx's own SIMD erfc and log on batches: accurate in erfc's tails (|x| > 5.5, where
/// xsimd's erfc loses all relative accuracy) and for subnormal log arguments, as calx's
/// generated code is. libm on scalars.
struct accurate_math {
  template <class V>
  static CALX_BENCH_INLINE V erfc(const V& x) {
    if constexpr (std::is_floating_point_v<V>)
      return std::erfc(x);
    else
      return calx::detail::simd_math::erfc(x);
  }
  template <class V>
  static CALX_BENCH_INLINE V log(const V& x) {
    if constexpr (std::is_floating_point_v<V>)
      return std::log(x);
    else
      return calx::detail::simd_math::log(x);
  }
};

/// The call price and its sensitivities the way reverse mode computes them: the forward
/// sweep, then the chain rule backwards (two density evaluations, six divisions), the op mix
/// an AD tool reaches. `Math` supplies erfc and log.
template <class V, class Math = library_math>
CALX_BENCH_INLINE black_scholes_result<V> black_scholes_chain(const V& S, const V& K, const V& T, const V& r,
                                                               const V& sigma) {
  using std::exp;
  using std::sqrt;
  const V sqrt_t = sqrt(T);
  const V vol = sigma * sqrt_t;
  const V a = r + V(0.5) * (sigma * sigma);
  const V num = Math::log(S / K) + a * T;
  const V d1 = num / vol;
  const V d2 = d1 - vol;
  const V nd1 = V(0.5) * Math::erfc(-d1 * V(inv_sqrt2));
  const V nd2 = V(0.5) * Math::erfc(-d2 * V(inv_sqrt2));
  const V disc = exp(-(r * T));
  const V k_disc = K * disc;
  const V n1 = V(inv_sqrt_2pi) * exp(V(-0.5) * (d1 * d1));
  const V n2 = V(inv_sqrt_2pi) * exp(V(-0.5) * (d2 * d2));
  // Backwards from the price C = S N(d1) - K disc N(d2).
  const V g_d2 = -(k_disc * n2);
  const V g_d1 = S * n1 + g_d2;
  const V g_num = g_d1 / vol;
  const V g_vol = -g_d2 - g_num * d1;
  const V g_x = -(K * nd2) * disc;  // dC / d(-rT)
  black_scholes_result<V> res;
  res.value = S * nd1 - k_disc * nd2;
  res.dS = nd1 + g_num / S;
  res.dK = -(disc * nd2) - g_num / K;
  res.dT = g_num * a + g_vol * sigma * V(0.5) / sqrt_t - g_x * r;
  res.dr = g_num * T - g_x * T;
  res.dsigma = g_num * T * sigma + g_vol * sqrt_t;
  return res;
}

}  // namespace calx_bench

#endif  // CALX_BENCH_HAND_HPP
