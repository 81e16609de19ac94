// Black–Scholes prices and their gradients (the Greeks) for a batch of options: the kernel
// each instruction set gets its own copy of (greeks.cpp), declared here for main.cpp.
#pragma once
#include <calx/calx.hpp>
#include <calx/simd/dispatch.hpp>

#include <span>

constexpr auto norm_cdf = [](auto z) { return 0.5 * calx::erfc(-z * 0.7071067811865476); };
constexpr auto black_scholes = [](auto S, auto K, auto T, auto r, auto sigma) {
  auto vol = sigma * calx::sqrt(T);
  auto d1 = (calx::log(S / K) + (r + 0.5 * (sigma * sigma)) * T) / vol;
  return S * norm_cdf(d1) - K * calx::exp(-(r * T)) * norm_cdf(d1 - vol);
};

/// The batch: inputs and outputs (price, then d/dS, d/dT, d/dr, d/dsigma per option).
struct options_view {
  std::span<const double> S, K, T, r, sigma;
  std::span<double> price, delta, theta, rho, vega;
};

struct run_greeks {
  template <class Arch>
  void operator()(Arch, const options_view& o) const;
};
