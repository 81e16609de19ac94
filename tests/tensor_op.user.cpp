/// @file tests/tensor_op.user.cpp
/// @brief User tensor ops (tests/_include/user_tensor_ops.hpp): the kernel on numbers and in generated
/// code, one node when traced, and every transform of an op with its own rules against the same
/// function written with built-in ops and central differences.

#include <_include/user_tensor_ops.hpp>

#include <catch2/catch.hpp>

#include <string>
#include <tuple>
#include <vector>

using namespace tensor_op_test;

TEST_CASE("a user tensor op runs its kernel on numbers and is one node when traced", "[tensor_op][user]") {
  const vec8 x = sample8(0.3);
  const vec8 y = tl::cumsum(x);
  double acc = 0;
  for (std::size_t i = 0; i < 8; ++i) CHECK(y[i] == Approx(acc += x[i]).epsilon(1e-15));
  const vec8 z = cumsum_builtin(x);
  CHECK(max_diff(y, z) <= 1e-14);

  const auto p = calx::trace([](const auto& v) { return tl::cumsum(v); }, x);
  const std::string ir = calx::to_string(p);
  INFO(ir);
  CHECK(ir.find("cumsum") != std::string::npos);
  CHECK(ir.find("matvec") == std::string::npos);

  // Generated code runs the kernel (once per call).
  tl::cumsum_kernel_runs = 0;
  const vec8 w = p(x);
  CHECK(tl::cumsum_kernel_runs == 1);
  CHECK(max_diff(w, y) == 0.0);
}


TEST_CASE("a user tensor op with its own rules: every transform equals the built-in form", "[tensor_op][user]") {
  const vec8 x = sample8(1.1);
  CHECK(with_cumsum(x) == Approx(with_cumsum_builtin(x)).epsilon(1e-14));

  const vec8 g = calx::grad(with_cumsum)(x);
  CHECK(max_diff(g, calx::grad(with_cumsum_builtin)(x)) <= 1e-12);
  // h = 1e-6 central differences on values of order 1: error ~1e-9.
  CHECK(max_diff(g, central_difference(with_cumsum, x)) <= 1e-7);

  const auto jf = calx::jacfwd([](const auto& v) { return tl::cumsum(calx::sin(v)); })(x);
  const auto jr = calx::jacrev([](const auto& v) { return tl::cumsum(calx::sin(v)); })(x);
  for (std::size_t i = 0; i < 8; ++i)
    for (std::size_t j = 0; j < 8; ++j) {
      const double want = j <= i ? std::cos(x[j]) : 0.0;
      CHECK(jf[i * 8 + j] == Approx(want).margin(1e-14));
      CHECK(jr[i * 8 + j] == Approx(want).margin(1e-14));
    }

  // Second order: the rules' rules (cumsum and suffix_sum transpose each other).
  const auto h = calx::hessian(with_cumsum)(x);
  const auto hb = calx::hessian(with_cumsum_builtin)(x);
  CHECK(max_diff(h, hb) <= 1e-12);

  // jvp and vjp directly.
  const vec8 t = sample8(2.0);
  const auto [y, dy] = calx::jvp(with_cumsum, std::tuple{x}, std::tuple{t});
  const auto [yb, dyb] = calx::jvp(with_cumsum_builtin, std::tuple{x}, std::tuple{t});
  CHECK(double(y) == Approx(double(yb)).epsilon(1e-14));
  CHECK(double(dy) == Approx(double(dyb)).epsilon(1e-12));

  // vjp of the vector-valued op itself, linearize, value_and_grad.
  const auto [c, pullback] = calx::vjp([](const auto& v) { return tl::cumsum(v); }, x);
  const auto [ct] = pullback(t);
  double tail = 0;
  for (std::size_t i = 8; i-- > 0;) {
    CHECK(c[i] == Approx(cumsum_builtin(x)[i]).epsilon(1e-14));
    CHECK(ct[i] == Approx(tail += t[i]).epsilon(1e-14));  // the suffix sums of t
  }
  const auto [yl, lin] = calx::linearize(with_cumsum, x);
  CHECK(double(yl) == Approx(double(yb)).epsilon(1e-14));
  CHECK(double(lin(t)) == Approx(double(dyb)).epsilon(1e-12));
  const auto [v, gv] = calx::value_and_grad(with_cumsum)(x);
  CHECK(double(v) == Approx(double(yb)).epsilon(1e-14));
  CHECK(max_diff(gv, g) <= 1e-14);
}

