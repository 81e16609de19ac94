/// @file tests/tensor.fusion.stream.cpp
/// @brief Streamed contractions in straight-line code (detail/ir/ir.hpp,
/// `streamed_contraction`; detail/exec/streamed_contraction.hpp): A^T v, where v is an
/// elementwise function of A x (the gradient of any sum of f((A x)_i) in x), is one pass
/// over A's rows: each row gives its dot product with x, v's element, and is added into the
/// result. Which nodes fuse (A x and the chain inside A^T v; A y itself; nothing below 32
/// rows), and that the stream computes the closed forms, f32 and f64, at shapes with tails
/// of rows (not a multiple of four) and of SIMD batches of columns, value_and_grad's
/// included (there r is read by the value too: r and A x are written out, 2 r streamed),
/// and A y read shifted (not the stream's row).

#include <calx/calx.hpp>

#include <_include/fusion_roles.hpp>
#include <_include/vmap_support.hpp>

#include <catch2/catch.hpp>

#include <cmath>
#include <cstddef>
#include <limits>
#include <tuple>
#include <vector>

namespace {

using calx_test::count_role;
using calx_test::fused_role;
using calx_test::roles;
using calx_test::sample;

// The gradient in x: 2 A^T (A x - b), A x inside the chain 2 (A x - b).
constexpr auto least_squares = [](const auto& a, const auto& x, const auto& b) {
  const auto r = calx::matvec(a, x) - b;
  return calx::dot(r, r);
};
// A^T ((1 - tanh(A x)^2) y): A x read twice in the chain (tanh's vjp reads tanh(A x)).
constexpr auto tanh_layer = [](const auto& a, const auto& x, const auto& y) { return calx::sum(calx::tanh(calx::matvec(a, x)) * y); };
// A^T (A y): v is A y itself.
constexpr auto cross = [](const auto& a, const auto& x, const auto& y) {
  return calx::sum(calx::matvec(a, x) * calx::matvec(a, y));
};

// A^T ((1 - tanh(A x)^2) q), q = (A y)[1:] followed by z: q's element r reads row r + 1 of
// A y, so A y must not take the row the stream is at (it is read, shifted, from memory).
constexpr std::size_t shifted_rows = 40, shifted_cols = 24;
constexpr auto shifted = [](const auto& a, const auto& x, const auto& y, const auto& z) {
  const auto q = calx::concatenate(calx::slice<1, shifted_rows>(calx::matvec(a, y)), z);
  return calx::sum(calx::tanh(calx::matvec(a, x)) * q);
};

template <class F, std::size_t R, std::size_t P>
constexpr const auto& gradient_roles =
    roles<decltype(calx::grad(F{}, calx::argnums<1>)), calx::tensor<double, R, P>, calx::tensor<double, P>, calx::tensor<double, R>>;

/// Element `at` of a result, against `want`: within 4 roundings per term of the terms'
/// magnitudes (`rounds` terms: the two contractions round once per term each).
template <class T>
void check_entry(const char* what, std::size_t at, double got, long double want, long double magnitude, std::size_t rounds) {
  INFO(what << " entry " << at << ": got " << got << ", want " << static_cast<double>(want));
  CHECK(std::abs(got - static_cast<double>(want)) <=
        4.0 * static_cast<double>(rounds) * std::numeric_limits<T>::epsilon() * static_cast<double>(magnitude + 1));
}

/// The gradients of the three functions on A of R x P against their closed forms.
template <class T, std::size_t R, std::size_t P>
void check_gradients() {
  calx::tensor<T, R, P> a;
  calx::tensor<T, P> x;
  calx::tensor<T, R> b;
  for (std::size_t e = 0; e < R * P; ++e) a[e] = sample<T>(e, -1, 1, 3);
  for (std::size_t e = 0; e < P; ++e) x[e] = sample<T>(e, -1, 1, 4);
  for (std::size_t e = 0; e < R; ++e) b[e] = sample<T>(e, -1, 1, 5);
  const auto ax = [&](std::size_t i, const auto& v) {
    long double s = 0;
    for (std::size_t j = 0; j < P; ++j) s += static_cast<long double>(a[i * P + j]) * v[j];
    return s;
  };
  calx::tensor<T, P> y;  // cross's second vector (P long), b as tanh_layer's weights
  for (std::size_t e = 0; e < P; ++e) y[e] = sample<T>(e, -1, 1, 6);
  // Each closed form: g_j = sum_i A_ij w_i, with w_i from (A x)_i.
  const auto check = [&](const char* what, const calx::tensor<T, P>& g, const auto& w) {
    for (std::size_t j = 0; j < P; ++j) {
      long double want = 0, magnitude = 0;
      for (std::size_t i = 0; i < R; ++i) {
        const long double t = static_cast<long double>(a[i * P + j]) * w(i);
        want += t;
        magnitude += std::abs(t);
      }
      check_entry<T>(what, j, g[j], want, magnitude, R + P);
    }
  };
  check("least squares", calx::grad(least_squares, calx::argnums<1>)(a, x, b),
        [&](std::size_t i) { return 2 * (ax(i, x) - b[i]); });
  const auto [value, g] = calx::value_and_grad(least_squares, calx::argnums<1>)(a, x, b);
  check("least squares (value_and_grad)", g, [&](std::size_t i) { return 2 * (ax(i, x) - b[i]); });
  long double want = 0;
  for (std::size_t i = 0; i < R; ++i) want += (ax(i, x) - b[i]) * (ax(i, x) - b[i]);
  check_entry<T>("least squares' value", 0, value, want, want, R + P);
  check("tanh layer", calx::grad(tanh_layer, calx::argnums<1>)(a, x, b), [&](std::size_t i) {
    const long double t = std::tanh(ax(i, x));
    return (1 - t * t) * b[i];
  });
  check("cross", calx::grad(cross, calx::argnums<1>)(a, x, y), [&](std::size_t i) { return ax(i, y); });
}

TEST_CASE("streamed contractions: which nodes fuse", "[tensor][fusion][contraction]") {
  // grad: A x, its difference with b and 2 r inside A^T v, the one loop.
  constexpr const auto& ls = gradient_roles<decltype(least_squares), 64, 48>;
  STATIC_REQUIRE(count_role(ls, fused_role::loop) == 1);
  STATIC_REQUIRE(count_role(ls, fused_role::inside) == 3);
  // A y itself inside A^T v.
  constexpr const auto& cr = roles<decltype(calx::grad(cross, calx::argnums<1>)), calx::tensor<double, 40, 36>,
                                   calx::tensor<double, 36>, calx::tensor<double, 36>>;
  STATIC_REQUIRE(count_role(cr, fused_role::loop) == 1);
  STATIC_REQUIRE(count_role(cr, fused_role::inside) == 1);
  // A y, read shifted through a slice, stays out of the stream's rows; A x is in.
  constexpr const auto& sh = roles<decltype(calx::grad(shifted, calx::argnums<1>)), calx::tensor<double, shifted_rows, shifted_cols>,
                                   calx::tensor<double, shifted_cols>, calx::tensor<double, shifted_cols>, calx::tensor<double, 1>>;
  STATIC_REQUIRE(count_role(sh, fused_role::loop) >= 1);
  // Below 32 rows nothing fuses: the contractions' kernels run as they are.
  constexpr const auto& small = gradient_roles<decltype(least_squares), 16, 48>;
  STATIC_REQUIRE(count_role(small, fused_role::loop) == 0);
  STATIC_REQUIRE(count_role(small, fused_role::inside) == 0);
}

/// `shifted`'s gradient against its closed form.
template <class T>
void check_shifted() {
  constexpr std::size_t R = shifted_rows, P = shifted_cols;
  calx::tensor<T, R, P> a;
  calx::tensor<T, P> x, y;
  calx::tensor<T, 1> z;
  for (std::size_t e = 0; e < R * P; ++e) a[e] = sample<T>(e, -1, 1, 7);
  for (std::size_t e = 0; e < P; ++e) x[e] = sample<T>(e, -1, 1, 8), y[e] = sample<T>(e, -1, 1, 9);
  z[0] = T(0.5);
  const auto g = calx::grad(shifted, calx::argnums<1>)(a, x, y, z);
  const auto row = [&](std::size_t i, const auto& v) {
    long double s = 0;
    for (std::size_t j = 0; j < P; ++j) s += static_cast<long double>(a[i * P + j]) * v[j];
    return s;
  };
  for (std::size_t j = 0; j < P; ++j) {
    long double want = 0, magnitude = 0;
    for (std::size_t i = 0; i < R; ++i) {
      const long double t = std::tanh(row(i, x)), q = i + 1 < R ? row(i + 1, y) : static_cast<long double>(z[0]);
      const long double term = static_cast<long double>(a[i * P + j]) * (1 - t * t) * q;
      want += term;
      magnitude += std::abs(term);
    }
    check_entry<T>("shifted", j, g[j], want, magnitude, R + P);
  }
}

TEMPLATE_TEST_CASE("streamed contractions compute the closed forms", "[tensor][fusion][contraction]", float, double) {
  using T = TestType;
  check_shifted<T>();  // A y read shifted: not the stream's row
  check_gradients<T, 37, 21>();   // rows past the blocks of four, columns past the SIMD batches
  check_gradients<T, 64, 48>();   // whole blocks
  check_gradients<T, 33, 70>();   // one row past a block; wide rows with a tail
  check_gradients<T, 130, 35>();  // tall
  check_gradients<T, 16, 48>();   // not streamed: the kernels as before
}

}  // namespace
