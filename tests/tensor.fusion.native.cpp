/// @file tests/tensor.fusion.native.cpp
/// @brief Fused loops at the building machine's widest SIMD width: this TU is compiled with
/// -march=native (tests/CMakeLists.txt; the other tests use the baseline ISA, whose batches
/// are never wider than a row here). Where a batch is wider than the runs a fused loop reads
/// (on AVX-512 16 floats against kmeans' rows of 8 coordinates), the loop runs at the widest
/// width that reads whole runs (`loop_batch`, detail/exec/fusion.hpp) and a row's sum in
/// the widest batch that fits it (`row_batch`): kmeans with broadcast tensors, its
/// gradient, and reductions over rows of 4, 6, 8 and 10, in f32 and f64, against the same
/// math in loops of long double.

#include <calx/calx.hpp>

#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <tuple>

namespace {

constexpr std::size_t N = 50, K = 10, D = 8;

constexpr auto kmeans = [](const auto& points, const auto& centroids) {
  const auto d = calx::reshape<N, 1, D>(points) - calx::reshape<1, K, D>(centroids);
  return calx::sum(calx::min(calx::sum(d * d, calx::axis<2>), calx::axis<1>));
};

/// Sums of rows of 4, 6 and 8, and maxima of rows of 10, of a chain of x (fused into the
/// reduction's loop): each row reads fewer numbers than an AVX-512 batch of floats holds.
constexpr auto rows = [](const auto& x4, const auto& x6, const auto& x8, const auto& x10) {
  return std::tuple{calx::sum(x4 * x4, calx::axis<1>), calx::sum(calx::sin(x6), calx::axis<1>), calx::sum(x8 * 2.0 + x8, calx::axis<1>),
                    calx::max(x10 * x10, calx::axis<1>)};
};

template <class T, std::size_t... S>
calx::tensor<T, S...> filled(double scale, double shift) {
  calx::tensor<T, S...> t;
  for (std::size_t k = 0; k < t.size; ++k) t[k] = static_cast<T>(scale * std::sin(0.7 * static_cast<double>(k) + shift));
  return t;
}

/// kmeans' cost and its gradient in the centroids, in long double: each point's nearest
/// centroid (the first, at a tie), 2 (c - p) added to its row.
template <class T>
long double kmeans_reference(const calx::tensor<T, N, D>& p, const calx::tensor<T, K, D>& c, std::array<long double, K * D>& g) {
  long double cost = 0;
  for (std::size_t i = 0; i < N; ++i) {
    long double best = 0;
    std::size_t at = 0;
    for (std::size_t k = 0; k < K; ++k) {
      long double s = 0;
      for (std::size_t j = 0; j < D; ++j) {
        const long double d = static_cast<long double>(p[i * D + j]) - static_cast<long double>(c[k * D + j]);
        s += d * d;
      }
      if (k == 0 || s < best) best = s, at = k;
    }
    cost += best;
    for (std::size_t j = 0; j < D; ++j)
      g[at * D + j] += 2 * (static_cast<long double>(c[at * D + j]) - static_cast<long double>(p[i * D + j]));
  }
  return cost;
}

template <class T>
void check_kmeans() {
  // Relative error of sums of a few hundred terms, summed in other orders: f32 to 1e-5, f64
  // to 1e-13.
  const double tol = sizeof(T) == 4 ? 1e-5 : 1e-13;
  const auto p = filled<T, N, D>(2.0, 0.0);
  const auto c = filled<T, K, D>(1.5, 0.3);
  std::array<long double, K * D> want_g{};
  const long double want = kmeans_reference(p, c, want_g);
  const T cost = calx::trace(kmeans, p, c)(p, c);
  CHECK(std::abs(static_cast<long double>(cost) - want) <= tol * want);
  const auto [v, g] = calx::value_and_grad(kmeans, calx::argnums<1>)(p, c);
  CHECK(std::abs(static_cast<long double>(v) - want) <= tol * want);
  long double scale = 0, err = 0;
  for (std::size_t k = 0; k < K * D; ++k) {
    scale = std::max(scale, std::abs(want_g[k]));
    err = std::max(err, std::abs(static_cast<long double>(g[k]) - want_g[k]));
  }
  CHECK(err <= tol * scale);
}

template <class T>
void check_rows() {
  const double tol = sizeof(T) == 4 ? 1e-6 : 1e-15;  // sums of at most 8 terms
  const auto x4 = filled<T, 40, 4>(1.0, 0.1);
  const auto x6 = filled<T, 40, 6>(1.0, 0.2);
  const auto x8 = filled<T, 40, 8>(1.0, 0.3);
  const auto x10 = filled<T, 40, 10>(1.0, 0.4);
  const auto [s4, s6, s8, m10] = calx::trace(rows, x4, x6, x8, x10)(x4, x6, x8, x10);
  for (std::size_t r = 0; r < 40; ++r) {
    long double w4 = 0, w6 = 0, w8 = 0, w10 = -1;
    for (std::size_t j = 0; j < 4; ++j) w4 += static_cast<long double>(x4[r * 4 + j]) * x4[r * 4 + j];
    for (std::size_t j = 0; j < 6; ++j) w6 += std::sin(static_cast<long double>(x6[r * 6 + j]));
    for (std::size_t j = 0; j < 8; ++j) w8 += 3 * static_cast<long double>(x8[r * 8 + j]);
    for (std::size_t j = 0; j < 10; ++j) w10 = std::max(w10, static_cast<long double>(x10[r * 10 + j]) * x10[r * 10 + j]);
    CHECK(std::abs(s4[r] - w4) <= tol * 4);
    CHECK(std::abs(s6[r] - w6) <= tol * 6);
    CHECK(std::abs(s8[r] - w8) <= tol * 8 * 3);
    CHECK(std::abs(m10[r] - w10) <= tol);
  }
}

}  // namespace

TEST_CASE("kmeans with broadcast tensors at the native SIMD width", "[tensor][fusion][native]") {
  check_kmeans<float>();
  check_kmeans<double>();
}

TEST_CASE("reductions over rows narrower than a native batch", "[tensor][fusion][native]") {
  check_rows<float>();
  check_rows<double>();
}
