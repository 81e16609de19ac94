/// @file tests/tensor.elementwise.cpp
/// @brief Tensor nodes of numbers on xsimd batches (detail/tensor/elementwise_batches.hpp):
/// elementwise built-in ops, reductions over every element, slices and pads (concatenate)
/// of traced programs, at sizes below, at and past the batched path's threshold (eight
/// SIMD batches) with and without a tail, in f32 and f64, against the same function run
/// eagerly element by element; and a gradient through them against its closed form.

#include <calx/calx.hpp>

#include <catch2/catch.hpp>

#include <xsimd/xsimd.hpp>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>
#include <tuple>
#include <utility>

namespace {

/// x with entries in [-2, 2], none the same.
template <class T, std::size_t N>
calx::tensor<T, N> ramp() {
  calx::tensor<T, N> x;
  for (std::size_t e = 0; e < N; ++e) x[e] = T(-2.0 + 4.0 * double((e * 37) % N) / double(N) + 1e-3 * double(e % 7));
  return x;
}

/// Within a few ulps of the magnitudes involved: the SIMD kernels of exp, sin and tanh
/// against std:: (calx's accuracy, docs/performance.md), sums grouped differently.
template <class T>
bool close(double got, double want, double scale = 1.0) {
  const double eps = sizeof(T) == 4 ? 4e-6 : 4e-15;
  return std::abs(got - want) <= eps * (std::abs(want) + scale);
}

template <class T, std::size_t N>
void check_size() {
  using X = calx::tensor<T, N>;
  const X x = ramp<T, N>();
  X y;
  for (std::size_t e = 0; e < N; ++e) y[e] = T(0.5) + x[e] * T(0.25);
  // Elementwise chains: unary, binary and ternary built-ins (fma-like a * b + c is two).
  const auto chain = [](const auto& a, const auto& b) {
    return std::tuple{calx::exp(a) * b + calx::sin(b), calx::tanh(a - b), calx::max(a, b) / (b + 3.0)};
  };
  const auto [u, v, w] = calx::trace(chain, x, y)(x, y);
  double worst = 0;
  for (std::size_t e = 0; e < N; ++e) {
    const double a = double(x[e]), b = double(y[e]);
    CHECK(close<T>(u[e], std::exp(a) * b + std::sin(b), 8.0));
    CHECK(close<T>(v[e], std::tanh(a - b)));
    CHECK(close<T>(w[e], std::max(a, b) / (b + 3.0)));
    worst = std::max(worst, std::abs(double(v[e]) - std::tanh(a - b)));
  }
  INFO("worst tanh error " << worst);
  // Reductions over every element: sum, max, min against a fold in double.
  const auto reduce = [](const auto& a) { return std::tuple{calx::sum(a), calx::max(a), calx::min(a)}; };
  const auto [s, mx, mn] = calx::trace(reduce, x)(x);
  double ws = 0, wabs = 0, wmx = double(x[0]), wmn = double(x[0]);
  for (std::size_t e = 0; e < N; ++e) {
    ws += double(x[e]);
    wabs += std::abs(double(x[e]));
    wmx = std::max(wmx, double(x[e]));
    wmn = std::min(wmn, double(x[e]));
  }
  // Any grouping of N additions errs by at most N roundings of the sum of magnitudes.
  CHECK(std::abs(double(s) - ws) <= double(N) * (sizeof(T) == 4 ? 6e-8 : 1.2e-16) * wabs);
  CHECK(double(mx) == wmx);
  CHECK(double(mn) == wmn);
  // A NaN anywhere is the max's and the min's (NaN-propagating, as the scalar ops).
  X z = x;
  z[N / 2] = std::numeric_limits<T>::quiet_NaN();
  const auto [zs, zmx, zmn] = calx::trace(reduce, z)(z);
  CHECK(std::isnan(double(zs)));
  CHECK(std::isnan(double(zmx)));
  CHECK(std::isnan(double(zmn)));
  // Folds of max and min on batches take the instruction's max and test a sum for NaN, then
  // fold with the kernel where the sum is NaN (fold_batches): a NaN in the first batches, the
  // loop, the last batch, the tail; +inf and -inf together (a NaN sum, no NaN); of a value in
  // memory and of a computed one (a fused operand). Against a NaN-propagating fold in double.
  const auto reduce2 = [](const auto& a) { return std::tuple{calx::max(a), calx::min(a), calx::max(a * 2.0), calx::min(a * 2.0)}; };
  const auto check_extrema = [&](const X& v) {
    double want_mx = double(v[0]), want_mn = double(v[0]);
    for (std::size_t e = 0; e < N; ++e) {
      const double ve = double(v[e]);
      want_mx = std::isnan(want_mx) || std::isnan(ve) ? std::numeric_limits<double>::quiet_NaN() : std::max(want_mx, ve);
      want_mn = std::isnan(want_mn) || std::isnan(ve) ? std::numeric_limits<double>::quiet_NaN() : std::min(want_mn, ve);
    }
    const auto [a, b, c, d] = calx::trace(reduce2, v)(v);
    const auto same = [](double got, double want) { return std::isnan(want) ? std::isnan(got) : got == want; };
    CHECK(same(double(a), want_mx));
    CHECK(same(double(b), want_mn));
    CHECK(same(double(c), 2 * want_mx));
    CHECK(same(double(d), 2 * want_mn));
  };
  constexpr std::size_t W = xsimd::batch<T>::size;
  constexpr T inf = std::numeric_limits<T>::infinity(), nan = std::numeric_limits<T>::quiet_NaN();
  for (const std::size_t p : {std::size_t{0}, W - 1, 4 * W, N / 2, N / (4 * W) * (4 * W) - 1, N - 1}) {
    if (p >= N) continue;
    const std::size_t q = N - 1 - p;
    INFO("at " << p << " and " << q << " of " << N);
    for (const auto& [at_p, at_q] : {std::pair{nan, T(0)}, {nan, inf}, {inf, T(0)}, {inf, -inf}, {-inf, nan}}) {
      INFO(double(at_p) << " and " << double(at_q));
      z = x;
      z[q] = at_q;
      z[p] = at_p;
      check_extrema(z);
    }
  }
  // Slices and concatenate (pads and an add), exactly.
  if constexpr (N >= 3) {
    const auto shift = [](const auto& a, const auto& b) {
      return calx::concatenate(calx::slice<0, 1>(a), calx::slice<1, N>(a) * calx::slice<0, N - 1>(b));
    };
    const X c = calx::trace(shift, x, y)(x, y);
    CHECK(c[0] == x[0]);
    for (std::size_t e = 1; e < N; ++e) CHECK(c[e] == x[e] * y[e - 1]);
    // Its gradient: d/dx_e of sum(c * y) is y[e] * y[e - 1] (e >= 1), y[0] at 0.
    const X g = calx::grad([](const auto& a, const auto& b) {
      return calx::sum(calx::concatenate(calx::slice<0, 1>(a), calx::slice<1, N>(a) * calx::slice<0, N - 1>(b)) * b);
    })(x, y);
    CHECK(g[0] == y[0]);
    for (std::size_t e = 1; e < N; ++e) CHECK(g[e] == Approx(double(y[e] * y[e - 1])).epsilon(1e-6));
  }
}

template <class T>
void check_sizes() {
  constexpr std::size_t W = xsimd::batch<T>::size;
  check_size<T, 3>();
  check_size<T, 8 * W - 1>();  // the inline loop
  check_size<T, 8 * W>();      // batches, no tail
  check_size<T, 8 * W + 3>();  // batches and a tail
  check_size<T, 2500>();
}

}  // namespace

TEST_CASE("tensor nodes of numbers on xsimd batches: elementwise ops, reductions, slices", "[tensor][elementwise]") {
  check_sizes<double>();
  check_sizes<float>();
}
