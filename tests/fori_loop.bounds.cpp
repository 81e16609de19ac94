/// @file tests/fori_loop.bounds.cpp
/// @brief Loop bounds that are traced reals (issue 24): under vmap each sample's trip count
/// depends on its own bounds only, a bound that is not an integer is truncated toward zero
/// on a SIMD lane as on a number (JAX requires integer bounds), and a bound that counts no
/// steps (NaN, or past 2^53) throws std::invalid_argument naming the value.

#include <calx/calx.hpp>

#include <catch2/catch.hpp>

#include <cmath>
#include <cstddef>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

/// Doubling from x, `n` times: x * 2^steps.
constexpr auto doubled = [](auto n, auto x) {
  return calx::fori_loop(0, n, [](auto, auto c) { return c * 2.0; }, x);
};
/// From `lo` to 10: steps 10 - trunc(lo).
constexpr auto from = [](auto lo, auto x) {
  return calx::fori_loop(lo, 10, [](auto, auto c) { return c * 2.0; }, x);
};

/// Steps a bound counts: truncation toward zero, none below the lower bound.
double steps(double lo, double hi) {
  return std::max(0.0, std::trunc(hi) - std::trunc(lo));
}

TEST_CASE("fori_loop bounds: each sample's trip count is its own, truncated", "[fori_loop][vmap]") {
  // Alone, and beside samples of other counts (in one SIMD group and across groups).
  const std::vector<std::vector<double>> cases = {
      {2.5}, {2.5, 7.0}, {0.9}, {0.9, 3.0}, {-1.5, 2.99, 3.0, 0.0, 5.5, 1.0, 4.2, 6.9, 2.5, 0.1, 7.0},
  };
  for (const auto& ns : cases) {
    const std::vector<double> xs(ns.size(), 1.0);
    const auto ys = calx::vmap(doubled)(ns, xs);
    for (std::size_t i = 0; i < ns.size(); ++i) {
      INFO("n = " << ns[i] << " among " << ns.size() << " samples");
      CHECK(ys[i] == std::exp2(steps(0.0, ns[i])));
      CHECK(calx::trace(doubled, 1.0, 1.0)(ns[i], 1.0) == ys[i]);  // one sample: the same count
    }
  }
  const std::vector<double> los = {2.5, -0.5, 9.9, 3.0, 7.1, 0.9, 8.0, 1.5, 4.99};
  const auto ys = calx::vmap(from)(los, std::vector<double>(los.size(), 1.0));
  for (std::size_t i = 0; i < los.size(); ++i) {
    INFO("lo = " << los[i]);
    CHECK(ys[i] == std::exp2(steps(los[i], 10.0)));
  }
  // Forward mode over the same loops: the tangent runs the same steps.
  const auto ds = calx::vmap(calx::jacfwd(doubled, calx::argnums<1>))(cases[4], std::vector<double>(cases[4].size(), 1.0));
  for (std::size_t i = 0; i < cases[4].size(); ++i) CHECK(ds[i] == std::exp2(steps(0.0, cases[4][i])));
}

TEST_CASE("fori_loop bounds: a bound that counts no steps throws with its value", "[fori_loop][vmap]") {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  for (const double bad : {nan, 1e300, -1e300, std::numeric_limits<double>::infinity()}) {
    INFO("bound " << bad);
    std::vector<double> ns = {1.0, 2.0, bad, 3.0};
    const std::vector<double> xs(ns.size(), 1.0);
    CHECK_THROWS_AS(calx::vmap(doubled)(ns, xs), std::invalid_argument);
    CHECK_THROWS_AS(calx::trace(doubled, 1.0, 1.0)(bad, 1.0), std::invalid_argument);
    try {
      calx::trace(doubled, 1.0, 1.0)(bad, 1.0);
    } catch (const std::invalid_argument& e) {
      const std::string what = e.what();
      CHECK(what.find("calx::fori_loop: a loop bound must be an integer of magnitude at most 2^53") != std::string::npos);
      CHECK(what.find(std::to_string(bad)) != std::string::npos);
    }
  }
}

}  // namespace
