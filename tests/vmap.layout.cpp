/// @file tests/vmap.layout.cpp
/// @brief How vmap lays out and writes its results, and the bugs found in that: nested vmap
/// returns r[sample][element] (JAX's order, the outer mapped axis first) with checked
/// indexing; broadcast std::array arguments of a traced vmap over a std::array batch are
/// passed whole, not indexed; `.into` takes a temporary view, and may write over an input
/// in place; `.threads(n)` refuses a negative count with the value in the message.

#include <_include/float_compare.hpp>
#include <_include/vmap_support.hpp>

#include <calx/calx.hpp>

#include <catch2/catch.hpp>

#include <array>
#include <cstddef>
#include <span>
#include <stdexcept>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

namespace {

using calx_test::column;
using Catch::Matchers::Contains;

constexpr auto cube = [](auto x) { return x * x * x - 0.5 * x; };
constexpr auto inner = [](auto row) { return calx::vmap(cube)(row); };

TEMPLATE_TEST_CASE("vmap(vmap(f)) over rows returns r[row][element], JAX's order", "[vmap][layout]", float, double) {
  using T = TestType;
  for (std::size_t n : {std::size_t{0}, std::size_t{1}, std::size_t{5}, std::size_t{37}}) {
    std::vector<std::array<T, 3>> rows(n);
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t j = 0; j < 3; ++j) rows[i][j] = T(0.25) * T(i) - T(j);
    const auto r = calx::vmap(inner)(rows);
    STATIC_REQUIRE(std::is_same_v<decltype(r), const calx::batched<std::array<T, 3>>>);
    REQUIRE(r.size() == n);
    const auto one = calx::trace(cube, T{});
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t j = 0; j < 3; ++j)
        CHECK(calx_test::within_ulps(r[i][j], one(rows[i][j]), 4));  // r[sample][element]
    // Indexing by sample is checked (this build keeps assertions; tests/structure/ has a
    // program that is stopped by an out-of-range index), and at() always throws.
    CHECK_THROWS_AS(r.at(n), std::out_of_range);
  }
}

TEMPLATE_TEST_CASE("a std::array result is one std::array per sample; into() also takes one column per element",
                   "[vmap][layout]", float, double) {
  using T = TestType;
  constexpr auto powers = [](auto x) { return std::array{x, x * x, x * x * x}; };
  const auto x = column<T>(19, -2, 2, 3);
  const auto r = calx::vmap(powers)(x);
  // Into the same layout (a column of std::arrays) and into one column per element.
  std::vector<std::array<T, 3>> aos(x.size());
  calx::vmap(powers).into(aos)(x);
  std::array<std::vector<T>, 3> soa{std::vector<T>(x.size()), std::vector<T>(x.size()), std::vector<T>(x.size())};
  calx::vmap(powers).into(soa)(x);
  for (std::size_t i = 0; i < x.size(); ++i) {
    CHECK(r[i] == powers(x[i]));
    CHECK(aos[i] == r[i]);
    for (std::size_t k = 0; k < 3; ++k) CHECK(soa[k][i] == r[i][k]);
  }
}

// The traced vmap over a std::array batch indexed every std::array argument, broadcast ones
// too (vmap.hpp before 0.2: `return axes == 0 ? x[i] : x[i];`).
constexpr auto affine = [](auto x, auto w) { return x * w[0] + w[1]; };
constexpr auto mapped_affine = [](auto xs, auto w) {
  const auto ys = calx::vmap(affine, calx::in_axes<0, calx::none>)(xs, w);
  return ys[0] + 2.0 * ys[1] + 3.0 * ys[2];
};

TEST_CASE("a broadcast std::array argument of a traced vmap over a std::array batch is passed whole",
          "[vmap][layout]") {
  const std::array<double, 3> xs{0.5, -1.25, 2.0};
  const std::array<double, 2> w{3.0, -0.75};
  const double want = (xs[0] * w[0] + w[1]) + 2.0 * (xs[1] * w[0] + w[1]) + 3.0 * (xs[2] * w[0] + w[1]);
  CHECK(calx::trace(mapped_affine, xs, w)(xs, w) == want);
  // d/dw of sum_k (k+1) (x_k w0 + w1) = (sum (k+1) x_k, sum (k+1)) = (0.5 - 2.5 + 6, 6).
  const auto g = calx::grad(mapped_affine, calx::argnums<1>)(xs, w);
  CHECK(g[0] == 4.0);
  CHECK(g[1] == 6.0);
}

TEST_CASE("into() takes a temporary view, and may write over an input in place", "[vmap][into]") {
  constexpr auto f = [](auto x, auto y) { return calx::sin(x) * y + x; };
  const auto x0 = column<double>(1000, -3, 3, 1), y = column<double>(1000, -3, 3, 2);
  const auto want = calx::vmap(f)(x0, y);
  std::vector<double> buf(x0.size());
  calx::vmap(f).into(std::span<double>(buf))(x0, y);  // a temporary std::span
  CHECK(buf == std::vector<double>(want.begin(), want.end()));
  // In place: the output column is the first input's column (same elements, not shifted).
  std::vector<double> x = x0;
  calx::vmap(f).into(x)(x, y);
  CHECK(x == buf);
  // And with several threads and a tuple of a span and a reference.
  constexpr auto two = [](auto x, auto y) { return std::pair{x * y, x - y}; };
  std::vector<double> a = x0, b(x0.size());
  calx::vmap(two).threads(2).into(std::pair<std::span<double>, std::vector<double>&>{a, b})(a, y);
  for (std::size_t i = 0; i < x0.size(); ++i) {
    CHECK(a[i] == x0[i] * y[i]);
    CHECK(b[i] == x0[i] - y[i]);
  }
}

// The loop writes each output as it computes it (detail/exec/simd_executor.hpp), with a
// constant stride where the destination's type fixes one: an output another node still
// reads, a node returned twice and an input returned as it is must all arrive, in full
// groups, the padded tail and over several chunks, whatever the destination's layout.
TEMPLATE_TEST_CASE("outputs are written as computed: reused, repeated, inputs, any destination layout", "[vmap][into]",
                   float, double) {
  using T = TestType;
  constexpr auto f = [](auto x, auto y) {
    const auto s = x * y;
    return std::pair{std::array{x, s, s}, std::array{s + y, x - s}};
  };
  for (std::size_t n : {std::size_t{1}, std::size_t{37}, std::size_t{4100}}) {
    const auto x = column<T>(n, -2, 2, 5), y = column<T>(n, -2, 2, 6);
    const auto want = [&](std::size_t i) {
      const T s = x[i] * y[i];
      return std::pair{std::array{x[i], s, s}, std::array{s + y[i], x[i] - s}};
    };
    // One array of structures per result: each its own stride (a runtime stride).
    const auto r = calx::vmap(f).threads(2)(x, y);
    // One array of pairs: one stride for every column (a constant stride).
    using row = std::pair<std::array<T, 3>, std::array<T, 2>>;
    constexpr auto g = [](auto x, auto y) {
      const auto s = x * y;
      return std::array{x, s, s, s + y, x - s};
    };
    std::vector<std::array<T, 5>> rows(n);
    calx::vmap(g).into(rows)(x, y);
    // One column per element (contiguous columns).
    std::array<std::vector<T>, 3> first{std::vector<T>(n), std::vector<T>(n), std::vector<T>(n)};
    std::array<std::vector<T>, 2> second{std::vector<T>(n), std::vector<T>(n)};
    calx::vmap(f).into(std::pair<std::array<std::vector<T>, 3>&, std::array<std::vector<T>, 2>&>{first, second})(x, y);
    std::size_t wrong = 0;
    for (std::size_t i = 0; i < n; ++i) {
      const row w = want(i);
      const std::array<T, 5> flat{w.first[0], w.first[1], w.first[2], w.second[0], w.second[1]};
      wrong += r.first[i] != w.first || r.second[i] != w.second || rows[i] != flat;
      for (std::size_t k = 0; k < 3; ++k) wrong += first[k][i] != w.first[k];
      for (std::size_t k = 0; k < 2; ++k) wrong += second[k][i] != w.second[k];
    }
    INFO("samples: " << n);
    CHECK(wrong == 0);
  }
}

TEST_CASE("threads(n) refuses a negative count, naming it", "[vmap][threads]") {
  const std::vector<double> x{1.0, 2.0};
  CHECK_THROWS_WITH(calx::vmap(cube).threads(-1), Contains("threads(-1)") && Contains("0 (one thread per core)"));
  CHECK_THROWS_AS(calx::vmap(cube).into(std::span<double>()).threads(-3), std::invalid_argument);
  CHECK(calx::vmap(cube).threads(0)(x)[1] == cube(2.0));
}

}  // namespace

namespace {

// Integer arguments are passed through (converted to the program's precision) and never
// differentiated or batched, like JAX's static arguments; they do not set the precision.
constexpr auto scaled_power = [](auto x, auto n) { return calx::pow(x, n) * n; };

TEST_CASE("integer arguments: passed through, not differentiated, broadcast by vmap", "[vmap][grad][integer]") {
  CHECK(calx::trace(scaled_power, 2.0, 3)(2.0, 3) == 24.0);
  const auto pf = calx::trace(scaled_power, 2.0f, 3);  // float program: the int does not decide
  STATIC_REQUIRE(std::is_same_v<decltype(pf(2.0f, 3)), float>);
  CHECK(calx::grad(scaled_power)(2.0, 3) == 3.0 * 3.0 * 4.0);  // n * n x^(n-1)
  CHECK(calx::grad(scaled_power)(2.0, 5L) == 5.0 * 5.0 * 16.0);
  const std::vector<double> xs{1.0, 2.0, 3.0};
  const auto r = calx::vmap(scaled_power, calx::in_axes<0, calx::none>)(xs, 2);
  // (SIMD pow is within a few ulp of libm's)
  for (std::size_t i = 0; i < xs.size(); ++i) CHECK(calx_test::within_ulps(r[i], 2.0 * xs[i] * xs[i], 4));
  const auto g = calx::vmap(calx::grad(scaled_power), calx::in_axes<0, calx::none>)(xs, 2);
  for (std::size_t i = 0; i < xs.size(); ++i) CHECK(calx_test::within_ulps(g[i], 4.0 * xs[i], 4));
}

// A lambda with a capture-default that captures nothing is stateless: calx accepts it.
TEST_CASE("a [&] lambda that captures nothing is traced", "[vmap][grad][stateless]") {
  constexpr auto f = [&](auto x) { return x * x * 0.5; };
  STATIC_REQUIRE(!std::is_default_constructible_v<std::remove_const_t<decltype(f)>>);
  CHECK(calx::grad(f)(3.0) == 3.0);
  const std::vector<double> xs{1.0, 4.0};
  CHECK(calx::vmap(calx::grad(f))(xs)[1] == 4.0);
}

}  // namespace
