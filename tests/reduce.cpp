/// @file tests/reduce.cpp
/// @brief `calx::sum` and `calx::mean`: on std::array and ranges of numbers (in order,
/// constexpr), on std::arrays of traced values (their derivatives), and on runtime batches
/// inside grad / value_and_grad, where the batched executor sums fixed chunks of 2048
/// samples on SIMD lanes and adds the chunk totals in order.

#include <_include/float_compare.hpp>
#include <_include/vmap_support.hpp>

#include <calx/calx.hpp>

#include <catch2/catch.hpp>

#include <array>
#include <cmath>
#include <concepts>
#include <cstddef>
#include <limits>
#include <span>
#include <stdexcept>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

namespace {

using calx_test::batch_sizes;
using calx_test::sum_bound;
using calx_test::check_column;
using calx_test::column;
using calx_test::lanes_v;
using calx_test::same_value;
using calx_test::text;

// ---------------------------------------------------------------------------------------
// Numbers: a left-to-right sum, usable in constant expressions.

constexpr bool sums_numbers() {
  return calx::sum(std::array{1.0, 2.0, 3.5}) == 6.5 && calx::sum(std::array{1.5f, 2.5f}) == 4.0f &&
         calx::sum(std::array{1, 2, 3}) == 6 && calx::sum(std::array<double, 0>{}) == 0.0 &&
         calx::mean(std::array{1.0, 2.0, 6.0}) == 3.0 && calx::mean(std::array{1, 2}) == 1.5 &&
         // In order, left to right: (1e16 + 1) rounds to 1e16, so this is 0, not 1.
         calx::sum(std::array{1e16, 1.0, -1e16}) == 0.0 && calx::sum(std::array{1e16, -1e16, 1.0}) == 1.0;
}

TEST_CASE("calx::sum and calx::mean of std::arrays of numbers", "[reduce]") {
  CHECK(sums_numbers());
  STATIC_REQUIRE(sums_numbers());
  STATIC_REQUIRE(std::is_same_v<decltype(calx::sum(std::array{1.0f, 2.0f})), float>);
  STATIC_REQUIRE(std::is_same_v<decltype(calx::sum(std::array{1.0, 2.0})), double>);
  STATIC_REQUIRE(std::is_same_v<decltype(calx::mean(std::array{1.0, 2.0})), double>);
  // The mean of nothing is 0 / 0.
  CHECK(std::isnan(calx::mean(std::array<double, 0>{})));
}

TEST_CASE("calx::sum and calx::mean reject what is neither a range nor a traced value", "[reduce]") {
  STATIC_REQUIRE(std::invocable<calx::sum_fn, const std::vector<double>&>);
  STATIC_REQUIRE(std::invocable<calx::mean_fn, const std::array<float, 3>&>);
  STATIC_REQUIRE(std::invocable<calx::sum_fn, const calx::tracer&>);
  STATIC_REQUIRE(!std::invocable<calx::sum_fn, double>);
  STATIC_REQUIRE(!std::invocable<calx::mean_fn, double>);
  STATIC_REQUIRE(!std::invocable<calx::sum_fn, const calx::bool_tracer&>);
  STATIC_REQUIRE(!std::invocable<calx::sum_fn>);
}

TEMPLATE_TEST_CASE("calx::sum and calx::mean of ranges of numbers", "[reduce]", float, double) {
  using T = TestType;
  for (std::size_t n : batch_sizes<T>()) {
    const std::vector<T> x = column<T>(n, -3, 3, 1);
    T want{};
    for (T v : x) want += v;  // left to right, in T
    CHECK(same_value(calx::sum(x), want));
    CHECK(same_value(calx::sum(std::span<const T>(x)), want));
    if (n > 0) {
      // The mean stays in the range's precision: the sum divided by n, in T.
      STATIC_REQUIRE(std::is_same_v<decltype(calx::mean(x)), T>);
      CHECK(same_value(calx::mean(x), want / static_cast<T>(n)));
    } else {
      CHECK(std::isnan(calx::mean(x)));
    }
  }
  const T raw[] = {T(1), T(2), T(4)};
  CHECK(calx::sum(raw) == T(7));
  CHECK(calx::mean(raw) == T(7) / T(3));
}

// ---------------------------------------------------------------------------------------
// Traced std::arrays: sum and mean are sequences of additions (and one division), so their
// derivatives are exact.

TEMPLATE_TEST_CASE("calx::sum and calx::mean over std::arrays of traced values", "[reduce][grad]", float, double) {
  using T = TestType;
  const std::array<T, 4> a{T(0.5), T(-1.25), T(2), T(3)};
  constexpr auto sum_squared = [](auto v) { return calx::sum(v) * calx::sum(v); };
  constexpr auto mean_of = [](auto v) { return calx::mean(v); };
  constexpr auto weighted = [](auto v, auto w) {
    return calx::sum(std::array{v[0] * w, v[1] * w, v[2] * w, v[3] * w});
  };
  const auto g = calx::grad(sum_squared)(a);
  STATIC_REQUIRE(std::is_same_v<decltype(g), const std::array<T, 4>>);
  const T s = a[0] + a[1] + a[2] + a[3];
  for (T gi : g) CHECK(same_value(gi, T(s + s)));
  for (T gi : calx::grad(mean_of)(a)) CHECK(same_value(gi, T(T(1) / T(4))));
  CHECK(same_value(calx::trace(mean_of, a)(a), T(s / T(4))));
  const auto [dv, dw] = calx::grad(weighted, calx::argnums<0, 1>)(a, T(3));
  for (T d : dv) CHECK(same_value(d, T(3)));
  CHECK(same_value(dw, s));  // integers and halves: exact in any order
}

// ---------------------------------------------------------------------------------------
// Runtime batches: calx::sum / calx::mean of a batched value, through grad and
// value_and_grad.

constexpr auto sum_sq = [](auto xs) { return calx::sum(xs * xs); };
constexpr auto mean_sq = [](auto xs) { return calx::mean(xs * xs); };
constexpr auto sum_raw = [](auto xs) { return calx::sum(xs); };
constexpr auto sum_scaled = [](auto xs, auto w) { return calx::sum(xs * w) + w * w; };
constexpr auto two_batches = [](auto xs, auto ys) { return calx::sum(xs * ys) - calx::mean(ys); };

template <class T>
void check_batch_sum(const char* what, std::size_t n, double got, const std::vector<T>& terms) {
  long double want = 0;
  double a = 0;
  for (T t : terms) want += t, a += std::abs(static_cast<double>(t));
  const double diff = std::abs(static_cast<double>(static_cast<long double>(got) - want));
  INFO(what << " (n = " << n << "): got " << text(got) << ", want " << text(static_cast<double>(want)) << ", bound "
            << sum_bound<T>(n, a));
  CHECK(diff <= sum_bound<T>(n, a));
}

TEMPLATE_TEST_CASE("calx::sum and calx::mean of runtime batches, through grad and value_and_grad", "[reduce][grad]",
                   float, double) {
  using T = TestType;
  for (std::size_t n : batch_sizes<T>()) {
    const std::vector<T> x = column<T>(n, -3, 3, 2), y = column<T>(n, -1, 1, 3);
    std::vector<T> sq(n), xy(n);
    for (std::size_t i = 0; i < n; ++i) sq[i] = x[i] * x[i], xy[i] = x[i] * y[i];

    // sum(x^2): the value is a batched sum; the gradient x + x = 2x exactly.
    const auto [v, g] = calx::value_and_grad(sum_sq)(x);
    STATIC_REQUIRE(std::is_same_v<decltype(calx::value_and_grad(sum_sq)(x)), std::pair<T, calx::batched<T>>>);
    check_batch_sum("sum(x^2)", n, v, sq);
    check_column("d sum(x^2) / dx", g, n, [&](std::size_t i) { return x[i] + x[i]; });
    check_column("grad(sum(x^2))", calx::grad(sum_sq)(x), n, [&](std::size_t i) { return x[i] + x[i]; });
    // sum(x): the gradient is 1 for every sample.
    check_column("grad(sum(x))", calx::grad(sum_raw)(x), n, [&](std::size_t) { return T(1); });

    // mean(x^2) = sum / n: the value within the sum's bound plus one rounding; the
    // per-sample cotangent is 1/n rounded, so the gradient is 2x times it, within 2 ulp.
    const auto [m, gm] = calx::value_and_grad(mean_sq)(x);
    if (n == 0) {
      CHECK(std::isnan(m));  // as JAX: the mean of an empty batch is nan
      CHECK(gm.empty());
    } else {
      long double s = 0;
      double a = 0;
      for (T t : sq) s += t, a += std::abs(static_cast<double>(t));
      const long double want = s / static_cast<long double>(n);
      INFO("mean(x^2), n = " << n << ": got " << text(m) << ", want " << text(static_cast<double>(want)));
      CHECK(std::abs(static_cast<double>(static_cast<long double>(m) - want)) <=
            sum_bound<T>(n, a) / static_cast<double>(n) +
                std::numeric_limits<T>::epsilon() * static_cast<double>(want));
      const double nn = static_cast<double>(n);
      // 2 eps relative: 1/n and x_i/n + x_i/n (or 2 x_i / n) each round once more.
      check_column("d mean(x^2) / dx", gm, n,
                   [&](std::size_t i) { return static_cast<T>(2.0 * static_cast<double>(x[i]) / nn); },
                   calx_test::tolerance{2 * std::numeric_limits<T>::epsilon(), 0});
    }

    // A broadcast parameter: d/dw is a batched sum, d/dxs is w for every sample.
    const T w = T(1.5);
    const auto [dx, dw] = calx::grad(sum_scaled, calx::argnums<0, 1>)(x, w);
    STATIC_REQUIRE(
        std::is_same_v<decltype(calx::grad(sum_scaled, calx::argnums<0, 1>)(x, w)), std::tuple<calx::batched<T>, T>>);
    check_column("d sum(x w) / dx", dx, n, [&](std::size_t) { return w; });
    std::vector<T> terms = x;
    terms.push_back(w + w);  // + d(w^2)/dw, added once (not per sample)
    check_batch_sum("d sum(x w) / dw", n, dw, terms);

    // Two batches of the same length.
    const auto [gx, gy] = calx::grad(two_batches, calx::argnums<0, 1>)(x, y);
    check_column("d/dxs of sum(xs ys) - mean(ys)", gx, n, [&](std::size_t i) { return y[i]; });
    // d/dys_i = xs_i - 1/n: two roundings (1/n and the difference), which may cancel.
    constexpr double eps = std::numeric_limits<T>::epsilon();
    const double inv_n = n == 0 ? 0.0 : 1.0 / static_cast<double>(n);
    check_column("d/dys of sum(xs ys) - mean(ys)", gy, n,
                 [&](std::size_t i) { return static_cast<T>(static_cast<double>(x[i]) - inv_n); },
                 calx_test::tolerance{2 * eps, 4 * eps});
  }
}

TEMPLATE_TEST_CASE("a batched sum of small integers is exact in any order", "[reduce]", float, double) {
  using T = TestType;
  // Every partial sum is an integer below 2^24, exact in float and double whatever the
  // grouping of the additions, so the result must be the exact total.
  for (std::size_t n : batch_sizes<T>()) {
    std::vector<T> x(n);
    std::size_t want = 0;
    for (std::size_t i = 0; i < n; ++i) x[i] = static_cast<T>(i % 7), want += i % 7;
    CHECK(calx::value_and_grad(sum_raw)(x).first == static_cast<T>(want));
    CHECK(calx::value_and_grad(sum_raw)(std::span<const T>(x)).first == static_cast<T>(want));
  }
}

TEST_CASE("batched arguments of grad must have the same length", "[reduce][grad]") {
  const std::vector<double> five{1, 2, 3, 4, 5}, three{1, 2, 3};
  CHECK_THROWS_MATCHES(
      calx::grad(two_batches)(five, three), std::invalid_argument,
      Catch::Matchers::Message("calx::grad: batched arguments have different lengths: argument 0 has 5 "
                               "samples, argument 1 has 3"));
  CHECK_THROWS_WITH(calx::value_and_grad(two_batches)(three, five),
                    Catch::Matchers::StartsWith("calx::value_and_grad:") &&
                        Catch::Matchers::Contains("argument 0 has 3 samples") &&
                        Catch::Matchers::Contains("argument 1 has 5"));
  CHECK_THROWS_WITH(calx::jvp(two_batches, std::tuple{five, five}, std::tuple{five, three}),
                    Catch::Matchers::StartsWith("calx::jvp:") && Catch::Matchers::Contains("has 5 samples") &&
                        Catch::Matchers::Contains("has 3"));
}

}  // namespace
