/// @file tests/tensor.fusion.stream.cpp
/// @brief Streamed contractions in straight-line code (detail/ir/ir.hpp,
/// `streamed_contraction`; detail/exec/streamed_contraction.hpp): A^T v, where v is an
/// elementwise function of A x (the gradient of any sum of f((A x)_i) in x), is one pass
/// over A's rows: each row gives its dot product with x, v's element, and is added into the
/// result. Which nodes fuse (A x and the chain inside A^T v; A y itself; nothing below 32
/// rows), and that the stream computes the closed forms, f32 and f64, at shapes with tails
/// of rows (not a multiple of four) and of SIMD batches of columns, value_and_grad's
/// included (there r is read by the value too: r and A x are written out, 2 r streamed),
/// A y read shifted (not the stream's row), and a sum of a streamed result (no loop folds
/// it).

#include <calx/calx.hpp>

#include <_include/fusion_roles.hpp>
#include <_include/sum_check.hpp>

#include <catch2/catch.hpp>

#include <cmath>
#include <cstddef>

namespace {

using calx_test::count_role;
using calx_test::fused_role;
using calx_test::roles;
using calx_test::check_sum;
using calx_test::fill_samples;

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

// The sum of least squares' gradient, traced: a full reduction of a streamed A^T v.
constexpr auto summed_gradient = [](const auto& a, const auto& x, const auto& b) {
  return calx::sum(calx::grad(least_squares, calx::argnums<1>)(a, x, b));
};

template <class F, std::size_t R, std::size_t P>
constexpr const auto& gradient_roles =
    roles<decltype(calx::grad(F{}, calx::argnums<1>)), calx::tensor<double, R, P>, calx::tensor<double, P>, calx::tensor<double, R>>;

/// The gradients of the three functions on A of R x P against their closed forms: entry j
/// is sum_i A_ij w_i, with w_i from (A x)_i.
template <class T, std::size_t R, std::size_t P>
void check_gradients() {
  calx::tensor<T, R, P> a;
  calx::tensor<T, P> x, y;  // y: cross's second vector; b: tanh_layer's weights
  calx::tensor<T, R> b;
  fill_samples(a, -1, 1, 3);
  fill_samples(x, -1, 1, 4);
  fill_samples(b, -1, 1, 5);
  fill_samples(y, -1, 1, 6);
  const auto ax = [&](std::size_t i, const auto& v) {
    long double s = 0;
    for (std::size_t j = 0; j < P; ++j) s += static_cast<long double>(a[i * P + j]) * v[j];
    return s;
  };
  const auto check = [&](const char* what, const calx::tensor<T, P>& g, const auto& w) {
    for (std::size_t j = 0; j < P; ++j)
      check_sum<T>(what, j, g[j], R, R + P, [&](std::size_t i) { return static_cast<long double>(a[i * P + j]) * w(i); });
  };
  const auto residual = [&](std::size_t i) { return ax(i, x) - b[i]; };
  check("least squares", calx::grad(least_squares, calx::argnums<1>)(a, x, b), [&](std::size_t i) { return 2 * residual(i); });
  const auto [value, g] = calx::value_and_grad(least_squares, calx::argnums<1>)(a, x, b);
  check("least squares (value_and_grad)", g, [&](std::size_t i) { return 2 * residual(i); });
  check_sum<T>("least squares' value", 0, value, R, R + P, [&](std::size_t i) { return residual(i) * residual(i); });
  // A reduction of a streamed result: no loop folds it (the stream is not a loop over its
  // elements), its own statement sums what the stream wrote.
  const auto total = calx::trace(summed_gradient, a, x, b)(a, x, b);
  check_sum<T>("sum of the least-squares gradient", 0, total, R * P, R + P,
               [&](std::size_t k) { return static_cast<long double>(a[k]) * 2 * residual(k / P); });
  check("tanh layer", calx::grad(tanh_layer, calx::argnums<1>)(a, x, b), [&](std::size_t i) {
    const long double t = std::tanh(ax(i, x));
    return (1 - t * t) * b[i];
  });
  check("cross", calx::grad(cross, calx::argnums<1>)(a, x, y), [&](std::size_t i) { return ax(i, y); });
}

/// `shifted`'s gradient against its closed form.
template <class T>
void check_shifted() {
  constexpr std::size_t R = shifted_rows, P = shifted_cols;
  calx::tensor<T, R, P> a;
  calx::tensor<T, P> x, y;
  calx::tensor<T, 1> z;
  fill_samples(a, -1, 1, 7);
  fill_samples(x, -1, 1, 8);
  fill_samples(y, -1, 1, 9);
  z[0] = T(0.5);
  const auto g = calx::grad(shifted, calx::argnums<1>)(a, x, y, z);
  const auto row = [&](std::size_t i, const auto& v) {
    long double s = 0;
    for (std::size_t j = 0; j < P; ++j) s += static_cast<long double>(a[i * P + j]) * v[j];
    return s;
  };
  for (std::size_t j = 0; j < P; ++j)
    check_sum<T>("shifted", j, g[j], R, R + P, [&](std::size_t i) {
      const long double t = std::tanh(row(i, x)), q = i + 1 < R ? row(i + 1, y) : static_cast<long double>(z[0]);
      return static_cast<long double>(a[i * P + j]) * (1 - t * t) * q;
    });
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
  // A sum of the streamed gradient: the stream is a loop no reduction folds.
  constexpr const auto& sg = roles<decltype(summed_gradient), calx::tensor<double, 64, 48>, calx::tensor<double, 48>,
                                   calx::tensor<double, 64>>;
  STATIC_REQUIRE(count_role(sg, fused_role::loop) == 1);
  STATIC_REQUIRE(count_role(sg, fused_role::folded) == 0);
  // Below 32 rows nothing fuses: the contractions' kernels run as they are.
  constexpr const auto& small = gradient_roles<decltype(least_squares), 16, 48>;
  STATIC_REQUIRE(count_role(small, fused_role::loop) == 0);
  STATIC_REQUIRE(count_role(small, fused_role::inside) == 0);
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
