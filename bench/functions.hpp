/// @file bench/functions.hpp
/// @brief The benchmark functions, written once for calx (traced) and for plain numbers.
#ifndef CALX_BENCH_FUNCTIONS_HPP
#define CALX_BENCH_FUNCTIONS_HPP

#include <calx/calx.hpp>

namespace calx_bench {

/// 1/sqrt(2): N(z) = 0.5 * erfc(-z / sqrt(2)) is written 0.5 * erfc(-z * inv_sqrt2), in the calx
/// function and in the hand-written code alike.
inline constexpr double inv_sqrt2 = 0.70710678118654752440084436210484903;
/// 1/sqrt(2*pi), the standard normal density's constant.
inline constexpr double inv_sqrt_2pi = 0.39894228040143267793994605993438187;

/// Rosenbrock: (1 - x)^2 + 100 (y - x^2)^2.
inline constexpr auto rosenbrock = [](auto x, auto y) {
  auto a = 1.0 - x;
  auto b = y - x * x;
  return a * a + 100.0 * (b * b);
};

/// The standard normal CDF through erfc.
inline constexpr auto norm_cdf = [](auto z) { return 0.5 * calx::erfc(-z * inv_sqrt2); };

/// Black-Scholes price of a European call: spot S, strike K, maturity T, rate r, volatility sigma.
inline constexpr auto black_scholes = [](auto S, auto K, auto T, auto r, auto sigma) {
  auto sqrt_t = calx::sqrt(T);
  auto vol = sigma * sqrt_t;
  auto d1 = (calx::log(S / K) + (r + 0.5 * (sigma * sigma)) * T) / vol;
  auto d2 = d1 - vol;
  auto disc = calx::exp(-(r * T));
  return S * norm_cdf(d1) - K * disc * norm_cdf(d2);
};

}  // namespace calx_bench

#endif  // CALX_BENCH_FUNCTIONS_HPP
