/// @file tests/tensor.contraction.cpp
/// @brief Contractions of numbers in memory (detail/tensor/contraction.hpp): the xsimd
/// kernels against a reference in long double, in every layout, at shapes around the SIMD
/// width (full blocks, partial blocks, tails; fewer and more than four rows); and the
/// programs that use them (a gradient's `A x` and `A^T r`, matmul's vjp) against closed forms.

#include <_include/sum_check.hpp>
#include <_include/vmap_support.hpp>

#include <calx/calx.hpp>

#include <catch2/catch.hpp>

#include <cmath>
#include <cstddef>
#include <limits>
#include <tuple>
#include <vector>

namespace {

using calx::detail::contraction;
using calx::detail::contraction_layout;
using calx::detail::contraction_loops;
using calx_test::check_sum;
using calx_test::fill_samples;
using calx_test::sample;

/// Contraction K of P x R by R x Q (in K's layouts) against sum_r a(p, r) b(r, q) added in
/// long double: within R + 2 roundings of the sum of the terms' magnitudes (any grouping
/// of a sum of R products errs by at most that much).
template <class T, int K, int P, int Q, int R>
void check_kernel() {
  constexpr contraction_loops L{P, Q, R};
  using at = contraction_layout<K, L>;
  std::vector<T> a(static_cast<std::size_t>(P * R)), b(static_cast<std::size_t>(R * Q)), out(static_cast<std::size_t>(P * Q), T(-7));
  for (std::size_t e = 0; e < a.size(); ++e) a[e] = sample<T>(e, -1, 1, 1);
  for (std::size_t e = 0; e < b.size(); ++e) b[e] = sample<T>(e, -2, 2, 2);
  calx::detail::contract_in_memory<K, L>(a.data(), b.data(), out.data());
  int bad = 0;
  for (int p = 0; p < P; ++p)
    for (int q = 0; q < Q; ++q) {
      long double want = 0, magnitude = 0;
      for (int r = 0; r < R; ++r) {
        const long double term = static_cast<long double>(a[static_cast<std::size_t>(at::a(p, r))]) * b[static_cast<std::size_t>(at::b(r, q))];
        want += term;
        magnitude += std::abs(term);
      }
      const double got = out[static_cast<std::size_t>(p * Q + q)];
      const double bound = (R + 2) * std::numeric_limits<T>::epsilon() * static_cast<double>(magnitude);
      if (std::abs(got - static_cast<double>(want)) > bound && bad++ < 3)
        FAIL_CHECK("K = " << K << ", " << P << " x " << R << " by " << R << " x " << Q << ": element (" << p << ", " << q
                          << ") is " << got << ", want " << static_cast<double>(want) << " (bound " << bound << ")");
    }
  CHECK(bad == 0);
}

template <class T, int P, int Q, int R>
void check_layouts() {
  check_kernel<T, contraction::ab, P, Q, R>();
  check_kernel<T, contraction::atb, P, Q, R>();
  check_kernel<T, contraction::abt, P, Q, R>();
}

TEMPLATE_TEST_CASE("contraction kernels in every layout, around the SIMD width", "[tensor][contraction]", float, double) {
  using T = TestType;
  // Matrix times vector (Q = 1): rows in blocks of four and the rest; R below, at and
  // above the lane count, with tails.
  check_layouts<T, 1, 1, 1>();
  check_layouts<T, 3, 1, 7>();
  check_layouts<T, 4, 1, 16>();
  check_layouts<T, 5, 1, 17>();
  check_layouts<T, 9, 1, 33>();
  check_layouts<T, 37, 1, 70>();
  // Matrix products: columns in blocks of 4 W, of W, and a tail.
  check_layouts<T, 3, 3, 3>();
  check_layouts<T, 2, 16, 5>();
  check_layouts<T, 5, 33, 9>();
  check_layouts<T, 4, 70, 17>();
  check_layouts<T, 7, 130, 2>();
  // Outer products (R = 1).
  check_kernel<T, contraction::outer, 5, 37, 1>();
  check_kernel<T, contraction::outer, 1, 1, 1>();
}

constexpr auto least_squares = [](const auto& a, const auto& x, const auto& b) {
  const auto r = calx::matvec(a, x) - b;
  return calx::dot(r, r);
};
constexpr auto product_loss = [](const auto& a, const auto& b) { return calx::sum(calx::matmul(a, b) * calx::matmul(a, b)); };

TEMPLATE_TEST_CASE("gradients through the contraction kernels match their closed forms", "[tensor][contraction][grad]", float,
                   double) {
  using T = TestType;
  constexpr std::size_t N = 37, M = 21;  // tails after the SIMD blocks
  calx::tensor<T, N, M> a;
  calx::tensor<T, M> x;
  calx::tensor<T, N> b;
  fill_samples(a, -1, 1, 3);
  fill_samples(x, -1, 1, 4);
  fill_samples(b, -1, 1, 5);
  // d/dx |A x - b|^2 = 2 A^T (A x - b).
  const auto g = calx::grad(least_squares, calx::argnums<1>)(a, x, b);
  std::vector<long double> r(N);
  for (std::size_t i = 0; i < N; ++i) {
    long double s = -static_cast<long double>(b[i]);
    for (std::size_t j = 0; j < M; ++j) s += static_cast<long double>(a[i * M + j]) * x[j];
    r[i] = s;
  }
  for (std::size_t j = 0; j < M; ++j)
    check_sum<T>("d/dx", j, g[j], N, N + M, [&](std::size_t i) { return 2 * a[i * M + j] * r[i]; });

  // d/dA sum((A B)^2) = 2 (A B) B^T, d/dB = 2 A^T (A B): matmul and its two transposed forms.
  calx::tensor<T, 5, 19> p;
  calx::tensor<T, 19, 33> q;
  fill_samples(p, -1, 1, 6);
  fill_samples(q, -1, 1, 7);
  const auto grads = calx::grad(product_loss, calx::argnums<0, 1>)(p, q);
  const auto& dp = std::get<0>(grads);
  const auto& dq = std::get<1>(grads);
  std::vector<long double> pq(5 * 33);
  for (std::size_t i = 0; i < 5; ++i)
    for (std::size_t k = 0; k < 33; ++k)
      for (std::size_t j = 0; j < 19; ++j) pq[i * 33 + k] += static_cast<long double>(p[i * 19 + j]) * q[j * 33 + k];
  for (std::size_t i = 0; i < 5; ++i)
    for (std::size_t j = 0; j < 19; ++j)
      check_sum<T>("d/dA", i * 19 + j, dp[i * 19 + j], 33, 19 + 33, [&](std::size_t k) { return 2 * pq[i * 33 + k] * q[j * 33 + k]; });
  for (std::size_t j = 0; j < 19; ++j)
    for (std::size_t k = 0; k < 33; ++k)
      check_sum<T>("d/dB", j * 33 + k, dq[j * 33 + k], 5, 19 + 5, [&](std::size_t i) { return 2 * p[i * 19 + j] * pq[i * 33 + k]; });
}

}  // namespace
