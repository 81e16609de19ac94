/// @file tests/batch.structured.0.cpp
/// @brief Runtime batches of structured samples (issue 26, item 4), tensors: grad,
/// value_and_grad, jvp and trace of a function that reduces a std::vector or std::span of
/// calx::tensor samples through a vmap inside it, and the misuses. Arrays and Hana structs:
/// tests/batch.structured.1.cpp.
/// Oracles: per-sample derivatives by vmap(grad(f)) summed in a plain loop (the same math
/// as a sum of per-sample programs), closed forms, and central differences.

#include <_include/float_compare.hpp>
#include <_include/vmap_support.hpp>

#include <calx/calx.hpp>

#include <catch2/catch.hpp>

#include <array>
#include <cmath>
#include <cstddef>
#include <limits>
#include <span>
#include <stdexcept>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

namespace {

using calx_test::batch_sizes;
using calx_test::check_column;
using calx_test::column_of;
using calx_test::sample;
using calx_test::batch_tolerance;
using calx_test::tolerance;

constexpr std::size_t K = 3, D = 4;

/// A soft nearest-centroid score of one point: log sum_k exp(-|p - c_k|^2).
constexpr auto soft_nearest = [](const auto& p, const auto& c) {
  const auto d = c - p;  // (K, D): p broadcast over the centroids
  return calx::log(calx::sum(calx::exp(-calx::sum(d * d, calx::axis<1>))));
};
/// The batch's total, written the way kmeans is: vmap over the points, then a sum.
constexpr auto total_score = [](const auto& ps, const auto& c) {
  return calx::sum(calx::vmap(soft_nearest, calx::in_axes<0, calx::none>)(ps, c));
};

template <class T>
std::vector<calx::tensor<T, D>> points(std::size_t n) {
  std::vector<calx::tensor<T, D>> ps(n);
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < D; ++j) ps[i](j) = sample<T>(i, -2, 2, static_cast<unsigned>(j));
  return ps;
}

template <class T>
calx::tensor<T, K, D> centroids() {
  calx::tensor<T, K, D> c;
  for (std::size_t k = 0; k < K; ++k)
    for (std::size_t j = 0; j < D; ++j) c(k, j) = static_cast<T>(0.3 * static_cast<double>(k) - 0.2 * static_cast<double>(j) + 0.1);
  return c;
}

TEMPLATE_TEST_CASE("grad and value_and_grad of a sum over a vmap of a batch of tensors", "[batch][tensor]", float, double) {
  using T = TestType;
  const auto c = centroids<T>();
  for (std::size_t n : batch_sizes<T>()) {
    INFO("n = " << n);
    const auto ps = points<T>(n);
    // The oracle: one program per sample, derivatives by vmap(grad), added up here.
    const auto each = calx::vmap(calx::grad(soft_nearest, calx::argnums<0, 1>), calx::in_axes<0, calx::none>)(ps, c);
    const auto& dp_each = std::get<0>(each);  // not structured bindings: clang 14 cannot capture those
    const auto& dc_each = std::get<1>(each);
    const auto values = calx::vmap(soft_nearest, calx::in_axes<0, calx::none>)(ps, c);
    double want_value = 0, magnitude = 0;
    for (std::size_t i = 0; i < n; ++i) want_value += static_cast<double>(values[i]), magnitude += std::abs(static_cast<double>(values[i]));
    std::array<double, K * D> want_dc{}, dc_magnitude{};
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t e = 0; e < K * D; ++e) {
        want_dc[e] += static_cast<double>(dc_each[i][e]);
        dc_magnitude[e] += std::abs(static_cast<double>(dc_each[i][e]));
      }

    const auto [value, grads] = calx::value_and_grad(total_score, calx::argnums<0, 1>)(ps, c);
    const auto& [dp, dc] = grads;
    STATIC_REQUIRE(std::is_same_v<std::remove_cvref_t<decltype(dp)>, calx::batched<calx::tensor<T, D>>>);
    STATIC_REQUIRE(std::is_same_v<std::remove_cvref_t<decltype(dc)>, calx::tensor<T, K, D>>);
    CHECK(std::abs(static_cast<double>(value) - want_value) <= batch_tolerance<T>(n, magnitude));
    for (std::size_t e = 0; e < K * D; ++e) {
      INFO("d/dc element " << e << ": got " << static_cast<double>(dc[e]) << ", want " << want_dc[e]);
      CHECK(std::abs(static_cast<double>(dc[e]) - want_dc[e]) <= batch_tolerance<T>(n, dc_magnitude[e]));
    }
    // Per-sample cotangents: the same ops per sample, possibly contracted differently.
    REQUIRE(dp.size() == n);
    for (std::size_t j = 0; j < D; ++j)
      check_column("d/dps element " + std::to_string(j), column_of(dp, [&](const auto& g) { return g[j]; }), n,
                   [&](std::size_t i) { return dp_each[i][j]; }, tolerance{64 * std::numeric_limits<T>::epsilon(), 0});

    // grad alone, and over a std::span, agree with value_and_grad's gradient.
    const auto dc_only = calx::grad(total_score, calx::argnums<1>)(std::span<const calx::tensor<T, D>>(ps), c);
    for (std::size_t e = 0; e < K * D; ++e) CHECK(calx_test::same_value(dc_only[e], dc[e]));
  }
}

TEST_CASE("the gradient over a batch of tensors matches central differences", "[batch][tensor]") {
  const auto ps = points<double>(5);
  auto c = centroids<double>();
  const auto dc = calx::grad(total_score, calx::argnums<1>)(ps, c);
  const auto value = [&](const calx::tensor<double, K, D>& at) {
    double s = 0;
    for (const auto& p : ps) s += static_cast<double>(soft_nearest(p, at));
    return s;
  };
  for (std::size_t e = 0; e < K * D; ++e) {
    const double h = 1e-6, x = c[e];
    c[e] = x + h;
    const double up = value(c);
    c[e] = x - h;
    const double down = value(c);
    c[e] = x;
    INFO("element " << e);
    CHECK(dc[e] == Approx((up - down) / (2 * h)).epsilon(1e-7).margin(1e-8));
  }
}

TEMPLATE_TEST_CASE("jvp and trace of a function of a batch of tensors", "[batch][tensor]", float, double) {
  using T = TestType;
  const auto c = centroids<T>();
  const auto ps = points<T>(37);
  // jvp along the centroids only: the directional derivative is <grad, direction>.
  calx::tensor<T, K, D> dir;
  for (std::size_t e = 0; e < K * D; ++e) dir[e] = static_cast<T>(0.25 * static_cast<double>(e % 5) - 0.5);
  const std::vector<calx::tensor<T, D>> no_change(ps.size());
  const auto [value, tangent] = calx::jvp(total_score, std::tuple{ps, c}, std::tuple{no_change, dir});
  const auto dc = calx::grad(total_score, calx::argnums<1>)(ps, c);
  double want = 0, magnitude = 0;
  for (std::size_t e = 0; e < K * D; ++e) {
    want += static_cast<double>(dc[e]) * static_cast<double>(dir[e]);
    magnitude += std::abs(static_cast<double>(dc[e]) * static_cast<double>(dir[e]));
  }
  CHECK(std::abs(static_cast<double>(tangent) - want) <= batch_tolerance<T>(ps.size(), magnitude));
  // Along the points: moving every point by u moves the score as moving the centroids by -u.
  std::vector<calx::tensor<T, D>> shift(ps.size());
  calx::tensor<T, K, D> back;
  for (auto& u : shift)
    for (std::size_t j = 0; j < D; ++j) u(j) = static_cast<T>(0.1 * static_cast<double>(j + 1));
  for (std::size_t k = 0; k < K; ++k)
    for (std::size_t j = 0; j < D; ++j) back(k, j) = -shift[0](j);
  const auto [v2, along_points] = calx::jvp(total_score, std::tuple{ps, c}, std::tuple{shift, calx::tensor<T, K, D>{}});
  const auto [v3, along_back] = calx::jvp(total_score, std::tuple{ps, c}, std::tuple{no_change, back});
  CHECK(calx_test::same_value(v2, value));
  const auto dp = calx::grad(total_score)(ps, c);
  double terms = 0;  // the magnitude of the sum's terms, <dp_i, u>
  for (std::size_t i = 0; i < ps.size(); ++i)
    for (std::size_t j = 0; j < D; ++j) terms += std::abs(static_cast<double>(dp[i][j]) * static_cast<double>(shift[i][j]));
  INFO("along the points " << static_cast<double>(along_points) << ", the centroids back " << static_cast<double>(along_back));
  CHECK(std::abs(static_cast<double>(along_points) - static_cast<double>(along_back)) <= 2 * batch_tolerance<T>(ps.size(), terms));

  // trace: one program for any batch length; its value is value_and_grad's.
  const auto program = calx::trace(total_score, ps, c);
  CHECK(calx_test::same_value(static_cast<T>(program(ps, c)), static_cast<T>(value)));
  const auto more = points<T>(1000);
  CHECK(calx_test::same_value(static_cast<T>(program(more, c)), calx::value_and_grad(total_score, calx::argnums<1>)(more, c).first));
  const auto gradient = calx::trace(calx::grad(total_score, calx::argnums<1>), ps, c);
  const auto dc_traced = gradient(more, c);
  const auto dc_more = calx::grad(total_score, calx::argnums<1>)(more, c);
  for (std::size_t e = 0; e < K * D; ++e) CHECK(calx_test::same_value(dc_traced[e], dc_more[e]));
}

// ---- misuse ----------------------------------------------------------------------------

TEST_CASE("vmap with in_axes 0 on a tensor outside a trace throws, naming the fix", "[batch][tensor]") {
  // Inside a traced function a tensor may stand for a batch of tensors; at run time it is
  // one tensor, which vmap cannot map over.
  const calx::tensor<double, D> p;
  const auto c = centroids<double>();
  CHECK_THROWS_MATCHES(calx::vmap(soft_nearest, calx::in_axes<0, calx::none>)(p, c), std::invalid_argument,
                       Catch::Matchers::Message(
                           "calx::vmap: an argument with in_axes 0 is a calx::tensor holding numbers; a tensor is a "
                           "batch only inside a traced function (a batch of tensors given to grad, value_and_grad, "
                           "jvp or trace). Map over a std::vector, std::span or std::array of tensors instead"));
}

TEST_CASE("batches of structures of different lengths throw, naming both", "[batch]") {
  const auto five = points<double>(5), three = points<double>(3);
  constexpr auto two = [](const auto& a, const auto& b) {
    return calx::sum(calx::vmap([](const auto& x, const auto& y) { return calx::dot(x, y); })(a, b));
  };
  CHECK_THROWS_MATCHES(calx::grad(two)(five, three), std::invalid_argument,
                       Catch::Matchers::Message("calx::grad: batched arguments have different lengths: argument 0 "
                                                "has 5 samples, argument 1 has 3"));
}

}  // namespace
