/// @file bench/hand.hpp
/// @brief The hand-written baselines: value and analytic gradient of Rosenbrock and of the
/// Black-Scholes call price. One template serves float, double and xsimd batches of both:
/// math functions are called unqualified after `using std::...`, so a batch finds xsimd's
/// (xsimd::erfc, exp, log, sqrt) by argument-dependent lookup.
#ifndef CALX_BENCH_HAND_HPP
#define CALX_BENCH_HAND_HPP

#include "functions.hpp"

#include <cmath>

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

}  // namespace calx_bench

#endif  // CALX_BENCH_HAND_HPP
