// Functions with known derivatives that several test files differentiate.
#ifndef CALX_TESTS_TEST_FUNCTIONS_HPP
#define CALX_TESTS_TEST_FUNCTIONS_HPP

#include <calx/calx.hpp>

#include <cstddef>
#include <numbers>

namespace calx_test {

/// The N-dimensional Rosenbrock function, sum of (1 - v[i])² + 100 (v[i+1] - v[i]²)².
template <std::size_t N>
constexpr auto rosenbrock = [](const auto& v) {
  auto s = 0.0 * v[0];
  for (std::size_t i = 0; i + 1 < N; ++i) {
    auto a = 1.0 - v[i];
    auto b = v[i + 1] - v[i] * v[i];
    s = s + a * a + 100.0 * b * b;
  }
  return s;
};

/// The Black-Scholes call price, with N(z) = erfc(-z/√2)/2.
constexpr auto black_scholes = [](auto S, auto K, auto r, auto sigma, auto T) {
  auto N = [](auto z) { return 0.5 * calx::erfc(-z / std::numbers::sqrt2); };
  auto sq = calx::sqrt(T);
  auto d1 = (calx::log(S / K) + (r + 0.5 * sigma * sigma) * T) / (sigma * sq);
  auto d2 = d1 - sigma * sq;
  return S * N(d1) - K * calx::exp(-r * T) * N(d2);
};

/// Smooth functions of one sample (and one broadcast weight) that vmap tests map.
constexpr auto fc = [](auto x) { return calx::sin(x) * calx::exp(-0.25 * x * x) + x * calx::log1p(x * x); };
constexpr auto fw = [](auto x, auto w) { return calx::tanh(w * x) + w * w * x * x * x; };

}  // namespace calx_test

#endif  // CALX_TESTS_TEST_FUNCTIONS_HPP
