/// @file tests/while_loop.reverse.cpp
/// @brief Reverse mode through calx::while_loop and through a fori_loop whose trip count is
/// traced (issue 30): grad, vjp, jacrev, hessian and vmap(grad) (lanes that leave the loop
/// at different steps) against closed forms, against forward mode (which runs the loop of
/// the body's jvp), against the same loop as a fori_loop with the trip count known, and
/// against central differences; f32 and f64.
///
/// Tolerances: the halving loop multiplies by 0.5 and 1.5 only, so its derivatives are
/// exact (0 ulp) in either mode; the quadratic loop's reverse and forward derivatives sum the
/// same products in other orders (16 ulp); Newton's iteration stops at a relative residual
/// of 1e-5, so its derivative is within 1e-5 (f64) or 1e-3 (f32) of 1 / (2 sqrt a); central
/// differences with h = 1e-6 agree to 1e-6 in f64 (checked in f64 only).

#include <_include/float_compare.hpp>

#include <calx/calx.hpp>

#include <catch2/catch.hpp>

#include <array>
#include <cmath>
#include <string>
#include <tuple>
#include <vector>

namespace {

using calx_test::text;
using calx_test::within_ulps;

template <class T>
void check_near(const std::string& what, T got, T want, std::uint64_t ulps) {
  INFO(what << ": got " << text(got) << ", want " << text(want));
  CHECK(within_ulps(got, want, ulps));
}

/// Halves x until it is at most 1, multiplying y by 1.5 each time: k = ceil(log2 x) steps,
/// so the result y 1.5^k + x 0.5^k has gradient (0.5^k, 1.5^k).
constexpr auto halvings = [](auto x, auto y) {
  const auto r = calx::while_loop([](auto c) { return c[0] > 1.0; },
                                  [](auto c) { return std::array{c[0] * 0.5, c[1] * 1.5}; }, std::array{x, y});
  return r[1] + r[0];
};
/// The same loop with its trip count known: a fori_loop of 4 steps (x in (8, 16]).
constexpr auto four_halvings = [](auto x, auto y) {
  const auto r = calx::fori_loop(0, 4, [](auto, auto c) { return std::array{c[0] * 0.5, c[1] * 1.5}; }, std::array{x, y});
  return r[1] + r[0];
};
/// Both carries as outputs: the Jacobian is diag(0.5^k, 1.5^k).
constexpr auto halvings_pair = [](auto x, auto y) {
  return calx::while_loop([](auto c) { return c[0] > 1.0; },
                          [](auto c) { return std::array{c[0] * 0.5, c[1] * 1.5}; }, std::array{x, y});
};
/// A nonlinear carry: y <- y + 0.1 y^2 while x halves (x fixes the count, y's map is
/// nonlinear, so second derivatives in y are not zero).
constexpr auto quadratic = [](auto x, auto y) {
  const auto r = calx::while_loop([](auto c) { return c[0] > 1.0; },
                                  [](auto c) { return std::array{c[0] * 0.5, c[1] + 0.1 * c[1] * c[1] * c[0]}; },
                                  std::array{x, y});
  return r[1] * r[0];
};
/// Newton's iteration for sqrt(a), until the residual is small.
constexpr auto newton_sqrt = [](auto a) {
  const auto r = calx::while_loop([](auto c) { return calx::abs(c[0] * c[0] - c[1]) > 1e-5 * c[1]; },
                                  [](auto c) { return std::array{0.5 * (c[0] + c[1] / c[0]), c[1]}; },
                                  std::array{a + 1.0, a});
  return r[0];
};
/// v <- v / 2 + 1, n times, n an integer argument: traced, known only at run time.
constexpr auto decay = [](auto x, auto n) {
  return calx::fori_loop(0, n, [](auto, auto v) { return 0.5 * v + 1.0; }, x);
};

template <class T>
int halving_steps(T x) {
  int k = 0;
  for (; x > T(1); x *= T(0.5)) ++k;
  return k;
}

}  // namespace

TEMPLATE_TEST_CASE("while_loop, reverse mode: grad, vjp, jacrev against closed forms and fori_loop", "[while_loop]",
                   float, double) {
  using T = TestType;
  const T x = T(10), y = T(0.75);  // 4 steps
  REQUIRE(halving_steps(x) == 4);
  const auto g = calx::grad(halvings, calx::argnums<0, 1>)(x, y);
  check_near("d/dx", std::get<0>(g), T(0.0625), 0);
  check_near("d/dy", std::get<1>(g), T(5.0625), 0);
  const auto gf = calx::grad(four_halvings, calx::argnums<0, 1>)(x, y);
  check_near("d/dx, fori_loop", std::get<0>(g), std::get<0>(gf), 0);
  check_near("d/dy, fori_loop", std::get<1>(g), std::get<1>(gf), 0);
  const auto fwd = calx::jacfwd(halvings, calx::argnums<0, 1>)(x, y);
  check_near("d/dx, forward mode", std::get<0>(g), std::get<0>(fwd), 0);

  const auto [value, pullback] = calx::vjp(halvings, x, y);
  check_near("vjp value", value, T(0.625 + 0.75 * 5.0625), 0);
  const auto ct = pullback(T(2));
  check_near("vjp x", std::get<0>(ct), T(0.125), 0);
  check_near("vjp y", std::get<1>(ct), T(10.125), 0);

  const auto j = calx::jacrev(halvings_pair, calx::argnums<0, 1>)(x, y);  // output-major
  check_near("jacrev dr0/dx", std::get<0>(std::get<0>(j)), T(0.0625), 0);
  check_near("jacrev dr0/dy", std::get<1>(std::get<0>(j)), T(0), 0);
  check_near("jacrev dr1/dx", std::get<0>(std::get<1>(j)), T(0), 0);
  check_near("jacrev dr1/dy", std::get<1>(std::get<1>(j)), T(5.0625), 0);

  // No step taken: the loop is the identity.
  const auto g0 = calx::grad(halvings, calx::argnums<0, 1>)(T(0.5), y);
  check_near("no step, d/dx", std::get<0>(g0), T(1), 0);
  check_near("no step, d/dy", std::get<1>(g0), T(1), 0);
}

TEMPLATE_TEST_CASE("while_loop, reverse mode: second derivatives against forward mode", "[while_loop]", float, double) {
  using T = TestType;
  const T x = T(6), y = T(0.3);
  const auto h = calx::hessian(quadratic, calx::argnums<0, 1>)(x, y);
  const auto ff = calx::jacfwd(calx::jacfwd(quadratic, calx::argnums<0, 1>), calx::argnums<0, 1>)(x, y);
  check_near("hessian xx", std::get<0>(std::get<0>(h)), std::get<0>(std::get<0>(ff)), 16);
  check_near("hessian xy", std::get<1>(std::get<0>(h)), std::get<1>(std::get<0>(ff)), 16);
  check_near("hessian yy", std::get<1>(std::get<1>(h)), std::get<1>(std::get<1>(ff)), 16);
  constexpr auto dy = [](auto a, auto b) { return calx::grad(quadratic, calx::argnums<1>)(a, b); };
  const T gg = calx::grad(dy, calx::argnums<1>)(x, y);
  check_near("grad of grad", gg, std::get<1>(std::get<1>(ff)), 16);
}

TEMPLATE_TEST_CASE("while_loop, reverse mode under vmap: each lane runs back its own steps", "[while_loop][vmap]", float,
                   double) {
  using T = TestType;
  std::vector<T> xs, ys;
  for (int i = 0; i < 19; ++i) {  // two groups of eight and a partial one; 0 to 9 steps
    xs.push_back(T(0.5) + T(i * i) * T(2.5));
    ys.push_back(T(0.25) + T(0.05) * T(i));
  }
  const auto grads = calx::vmap(calx::grad(halvings, calx::argnums<0, 1>))(xs, ys);
  for (std::size_t i = 0; i < xs.size(); ++i) {
    INFO("sample " << i << ", " << halving_steps(xs[i]) << " steps");
    const T k = T(halving_steps(xs[i]));
    check_near("d/dx", std::get<0>(grads)[i], std::pow(T(0.5), k), 0);
    check_near("d/dy", std::get<1>(grads)[i], std::pow(T(1.5), k), 0);
  }
  const auto quadratic_grads = calx::vmap(calx::grad(quadratic, calx::argnums<1>))(xs, ys);
  for (std::size_t i = 0; i < xs.size(); ++i) {
    INFO("sample " << i);
    check_near("quadratic d/dy", quadratic_grads[i], calx::grad(quadratic, calx::argnums<1>)(xs[i], ys[i]), 16);
  }
}

TEMPLATE_TEST_CASE("fori_loop, reverse mode with a traced trip count", "[fori_loop]", float, double) {
  using T = TestType;
  for (int n : {0, 1, 3, 40}) {
    INFO(n << " steps");
    check_near("d/dx", calx::grad(decay, calx::argnums<0>)(T(0.25), n), std::pow(T(0.5), T(n)), 0);
  }
  const std::vector<T> xs{T(0), T(1), T(2), T(3), T(4), T(5), T(6), T(7), T(8), T(9)};
  const std::vector<T> ns{T(0), T(1), T(2), T(3), T(4), T(5), T(6), T(7), T(8), T(9)};  // traced reals under vmap
  const auto grads = calx::vmap(calx::grad(decay, calx::argnums<0>))(xs, ns);
  for (std::size_t i = 0; i < xs.size(); ++i) {
    INFO("sample " << i);
    check_near("vmap d/dx", grads[i], std::pow(T(0.5), ns[i]), 0);
  }
}

TEST_CASE("while_loop, reverse mode: Newton's iteration against the closed form and central differences",
          "[while_loop]") {
  for (double a : {0.3, 2.0, 17.0}) {
    INFO("a = " << a);
    const double g = calx::grad(newton_sqrt)(a);
    CHECK(std::abs(g - 0.5 / std::sqrt(a)) <= 1e-5);
    const double h = 1e-6, fd = (newton_sqrt(a + h) - newton_sqrt(a - h)) / (2 * h);
    CHECK(std::abs(g - fd) <= 1e-6);
    check_near("forward mode", g, calx::jacfwd(newton_sqrt)(a), 16);
  }
  const float gf = calx::grad(newton_sqrt)(2.0f);
  CHECK(std::abs(gf - 0.5f / std::sqrt(2.0f)) <= 1e-3f);
}

TEST_CASE("while_loop inside a fori_loop's body: reverse and forward mode", "[while_loop][fori_loop]") {
  // Each outer step maps c to c 0.5^k + c, k = 3 halvings from 5, 5.625 and 6.33: the
  // derivative is 1.125^3, exact.
  constexpr auto f = [](auto x) {
    return calx::fori_loop(
        0, 3,
        [](auto, auto c) {
          return calx::while_loop([](auto v) { return v > 1.0; }, [](auto v) { return 0.5 * v; }, c) + c;
        },
        x);
  };
  CHECK(calx::grad(f)(5.0) == 1.125 * 1.125 * 1.125);
  CHECK(calx::jacfwd(f)(5.0) == 1.125 * 1.125 * 1.125);
}
