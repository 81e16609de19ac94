/// @file tests/_include/grad_cases.hpp
/// @brief The cases of tests/grad.*.cpp, split into translation units for the
/// compile budget (each TU defines CALX_TEST_PART and includes this):
/// `calx::grad` and `calx::value_and_grad`: argnums (single, several, reversed,
/// negative), structured arguments, has_aux, JAX's choices at non-differentiable points,
/// gradients of Rosenbrock and Black-Scholes against hand-written formulas, the size and
/// simplification of gradient programs, and the coverage of the law table
/// (tests/_include/laws.hpp, instantiated by grad.laws.*.cpp).
#ifndef CALX_TESTS_GRAD_CASES_HPP
#define CALX_TESTS_GRAD_CASES_HPP

#include <_include/float_compare.hpp>
#include <_include/ir_inspect.hpp>
#include <_include/laws.hpp>
#include <_include/test_functions.hpp>

#include <calx/calx.hpp>

#include <catch2/catch.hpp>

#include <array>
#include <cmath>
#include <concepts>
#include <cstddef>
#include <limits>
#include <numbers>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

namespace {

using calx_test::rosenbrock;
using calx_test::black_scholes;

using calx_test::count_op;
using calx_test::within_ulps;

/// |got - want| <= rel * (1 + |want|). Used where calx and the hand-written formula are the
/// same closed form evaluated in a different order; `rel` is stated at each use.
bool near(double got, double want, double rel) { return std::abs(got - want) <= rel * (1 + std::abs(want)); }

// Two closed-form derivatives computed in a different order from calx's program differ by
// a few ulp of the largest term; 1e-13 relative (~450 ulp) covers that with margin, and is
// far below any error a wrong rule would make.
constexpr double formula_tol = 1e-13;

constexpr auto f_xy = [](auto x, auto y) { return x * x * y + calx::sin(y); };

// ---------------------------------------------------------------------------------------
// Basics and result types.

#if CALX_TEST_PART == 0
TEST_CASE("grad of a scalar function, in double and float", "[transform][grad]") {
  constexpr auto f = [](auto x) { return x * calx::sin(x); };
  const double g = calx::grad(f)(1.0);
  CHECK(within_ulps(g, std::sin(1.0) + std::cos(1.0), 2));  // same two terms, added once
  STATIC_REQUIRE(std::is_same_v<decltype(calx::grad(f)(1.0)), double>);
  STATIC_REQUIRE(std::is_same_v<decltype(calx::grad(f)(1.0f)), float>);
  const float gf = calx::grad(f)(1.0f);
  CHECK(within_ulps(gf, std::sin(1.0f) + std::cos(1.0f), 2));
  // The result of a transform is itself a stateless function, so it can be transformed.
  STATIC_REQUIRE(std::is_empty_v<decltype(calx::grad(f))>);
  STATIC_REQUIRE(std::is_default_constructible_v<decltype(calx::grad(f))>);
  STATIC_REQUIRE(std::is_empty_v<decltype(calx::value_and_grad(f, calx::has_aux))>);
}
#endif

#if CALX_TEST_PART == 0
TEST_CASE("grad: argnums picks, orders and counts from the end", "[transform][grad][argnums]") {
  const double x = 1.5, y = -0.7;
  const double dx = 2 * x * y, dy = x * x + std::cos(y);
  // JAX's default is argnums=0.
  CHECK(near(calx::grad(f_xy)(x, y), dx, formula_tol));
  CHECK(calx::grad(f_xy, calx::argnums<0>)(x, y) == calx::grad(f_xy)(x, y));
  CHECK(near(calx::grad(f_xy, calx::argnums<1>)(x, y), dy, formula_tol));

  const auto [a0, a1] = calx::grad(f_xy, calx::argnums<0, 1>)(x, y);
  CHECK(near(a0, dx, formula_tol));
  CHECK(near(a1, dy, formula_tol));
  STATIC_REQUIRE(std::is_same_v<decltype(calx::grad(f_xy, calx::argnums<0, 1>)(x, y)), std::tuple<double, double>>);

  // Reversed: results follow argnums' order.
  const auto [r1, r0] = calx::grad(f_xy, calx::argnums<1, 0>)(x, y);
  CHECK(r1 == a1);
  CHECK(r0 == a0);

  // Negative indices count from the end, as in JAX.
  CHECK(calx::grad(f_xy, calx::argnums<-1>)(x, y) == a1);
  CHECK(calx::grad(f_xy, calx::argnums<-2>)(x, y) == a0);
  CHECK(calx::grad(f_xy, calx::argnums<-2, -1>)(x, y) == std::tuple{a0, a1});
  CHECK(calx::grad(f_xy, calx::argnums<-1, 0>)(x, y) == std::tuple{a1, a0});

  // Three arguments, a subset in a mixed order.
  constexpr auto h = [](auto a, auto b, auto c) { return a * b * b * c * c * c; };
  const auto [gc, ga] = calx::grad(h, calx::argnums<2, 0>)(2.0, 3.0, 5.0);
  CHECK(gc == 2.0 * 9.0 * 3.0 * 25.0);  // small integers: exact
  CHECK(ga == 9.0 * 125.0);
}
#endif

#if CALX_TEST_PART == 0
TEST_CASE("grad: structured arguments give gradients of the same structure", "[transform][grad][tree]") {
  SECTION("std::array") {
    constexpr auto f = [](const auto& v) { return v[0] * v[1] * v[2] + calx::sin(v[0]); };
    const std::array<double, 3> v{0.5, 2.0, -3.0};
    const auto g = calx::grad(f)(v);
    STATIC_REQUIRE(std::is_same_v<decltype(g), const std::array<double, 3>>);
    CHECK(near(g[0], 2.0 * -3.0 + std::cos(0.5), formula_tol));
    CHECK(g[1] == 0.5 * -3.0);
    CHECK(g[2] == 0.5 * 2.0);
    const auto gf = calx::grad(f)(std::array<float, 3>{0.5f, 2.0f, -3.0f});
    STATIC_REQUIRE(std::is_same_v<decltype(gf), const std::array<float, 3>>);
    CHECK(gf[1] == -1.5f);
  }
  SECTION("std::tuple with a nested std::array, and a second argument") {
    constexpr auto f = [](const auto& p, auto s) {
      const auto& [a, v] = p;
      return s * a * (v[0] + 2.0 * v[1]);
    };
    const std::tuple<double, std::array<double, 2>> p{3.0, {1.0, 4.0}};
    const auto g = calx::grad(f)(p, 0.5);
    STATIC_REQUIRE(std::is_same_v<decltype(g), const std::tuple<double, std::array<double, 2>>>);
    CHECK(std::get<0>(g) == 0.5 * 9.0);
    CHECK(std::get<1>(g) == std::array<double, 2>{0.5 * 3.0, 0.5 * 3.0 * 2.0});
    const auto [gp, gs] = calx::grad(f, calx::argnums<0, 1>)(p, 0.5);
    STATIC_REQUIRE(std::is_same_v<decltype(gp), const std::tuple<double, std::array<double, 2>>>);
    CHECK(gp == g);
    CHECK(gs == 3.0 * 9.0);
  }
  SECTION("std::pair") {
    constexpr auto f = [](const auto& p) { return p.first * calx::exp(p.second); };
    const auto g = calx::grad(f)(std::pair{2.0, 0.0});
    STATIC_REQUIRE(std::is_same_v<decltype(g), const std::pair<double, double>>);
    CHECK(g == std::pair{1.0, 2.0});
  }
}
#endif

#if CALX_TEST_PART == 0
TEST_CASE("grad and value_and_grad with has_aux", "[transform][grad][has_aux]") {
  // The aux output is any structure, passed through untouched (and not differentiated).
  constexpr auto f = [](auto x, auto y) {
    return std::pair{x * x * y, std::tuple{x + y, calx::sin(x)}};
  };
  const double x = 2.0, y = 3.0;
  const auto [g, aux] = calx::grad(f, calx::has_aux)(x, y);
  CHECK(g == 12.0);
  CHECK(aux == std::tuple{5.0, std::sin(2.0)});
  STATIC_REQUIRE(std::is_same_v<decltype(calx::grad(f, calx::has_aux)(x, y)),
                                std::pair<double, std::tuple<double, double>>>);

  // Options in either order.
  const auto [gy, aux2] = calx::grad(f, calx::argnums<1>, calx::has_aux)(x, y);
  CHECK(gy == 4.0);
  CHECK(aux2 == aux);
  CHECK(calx::grad(f, calx::has_aux, calx::argnums<1>)(x, y) == std::pair{gy, aux2});
  const auto [gxy, aux3] = calx::grad(f, calx::has_aux, calx::argnums<0, 1>)(x, y);
  CHECK(gxy == std::tuple{12.0, 4.0});
  CHECK(aux3 == aux);

  // value_and_grad: ((value, aux), grad), JAX's order.
  const auto [va, gv] = calx::value_and_grad(f, calx::has_aux, calx::argnums<0, 1>)(x, y);
  CHECK(va.first == 12.0);
  CHECK(va.second == aux);
  CHECK(gv == std::tuple{12.0, 4.0});
}
#endif

#if CALX_TEST_PART == 0
TEST_CASE("value_and_grad: the value and what grad returns", "[transform][grad][value_and_grad]") {
  const auto [v, g] = calx::value_and_grad(f_xy)(1.5, -0.7);
  CHECK(v == f_xy(1.5, -0.7));
  CHECK(g == calx::grad(f_xy)(1.5, -0.7));
  const auto [v2, g2] = calx::value_and_grad(f_xy, calx::argnums<1, 0>)(1.5, -0.7);
  CHECK(v2 == v);
  CHECK(g2 == calx::grad(f_xy, calx::argnums<1, 0>)(1.5, -0.7));
  STATIC_REQUIRE(std::is_same_v<decltype(calx::value_and_grad(f_xy, calx::argnums<0, 1>)(1.0f, 2.0f)),
                                std::pair<float, std::tuple<float, float>>>);
  constexpr auto fa = [](const auto& v3) { return v3[0] * v3[1] + v3[2]; };
  const auto [v3, g3] = calx::value_and_grad(fa)(std::array<double, 3>{2.0, 3.0, 4.0});
  CHECK(v3 == 10.0);
  CHECK(g3 == std::array<double, 3>{3.0, 2.0, 1.0});
}
#endif

// ---------------------------------------------------------------------------------------
// JAX's choices at non-differentiable points (calx/ops/selection.hpp, docs/transforms.md).

#if CALX_TEST_PART == 0
TEST_CASE("abs'(0) = 1 as in JAX, abs' = sign elsewhere", "[transform][grad][kinks]") {
  // JAX's lax._abs_jvp_rule is select(x >= 0, g, -g): the x >= 0 side at 0, and -0 >= 0.
  CHECK(calx::grad(calx::abs)(0.0) == 1.0);
  CHECK(calx::grad(calx::abs)(-0.0) == 1.0);
  CHECK(calx::grad(calx::abs)(0.0f) == 1.0f);
  CHECK(calx::jvp(calx::abs, std::tuple{0.0}, std::tuple{1.0}).second == 1.0);
  CHECK(std::get<0>(calx::vjp(calx::abs, 0.0).second(1.0)) == 1.0);
  CHECK(calx::grad(calx::abs)(-2.0) == -1.0);
  CHECK(calx::grad(calx::abs)(3.0) == 1.0);
  // Second derivative: the rule's branches are constants, so 0, also at the kink.
  CHECK(calx::grad(calx::grad(calx::abs))(0.0) == 0.0);
}
#endif

#if CALX_TEST_PART == 0
TEST_CASE("sign' = 0 everywhere, as a symbolic zero", "[transform][grad][kinks]") {
  for (double x : {-2.0, -0.0, 0.0, 3.0}) CHECK(calx::grad(calx::sign)(x) == 0.0);
  // No node: the gradient program is its input and the constant 0.
  using P = decltype(calx::trace(calx::grad(calx::sign), 1.0));
  STATIC_REQUIRE(P::ir.size == 2);
  STATIC_REQUIRE(calx_test::output_op(P::ir, 0) == calx_test::op_of<calx::constant_op>());
}
#endif

#if CALX_TEST_PART == 0
TEST_CASE("min and max split the derivative 1/2-1/2 at ties", "[transform][grad][kinks]") {
  CHECK(calx::grad(calx::max, calx::argnums<0, 1>)(2.0, 2.0) == std::tuple{0.5, 0.5});
  CHECK(calx::grad(calx::min, calx::argnums<0, 1>)(2.0, 2.0) == std::tuple{0.5, 0.5});
  CHECK(calx::grad(calx::max, calx::argnums<0, 1>)(-1.0f, -1.0f) == std::tuple{0.5f, 0.5f});
  CHECK(calx::grad(calx::max, calx::argnums<0, 1>)(3.0, 2.0) == std::tuple{1.0, 0.0});
  CHECK(calx::grad(calx::max, calx::argnums<0, 1>)(1.0, 2.0) == std::tuple{0.0, 1.0});
  CHECK(calx::grad(calx::min, calx::argnums<0, 1>)(3.0, 2.0) == std::tuple{0.0, 1.0});
  CHECK(calx::grad(calx::min, calx::argnums<0, 1>)(1.0, 2.0) == std::tuple{1.0, 0.0});
  // Forward mode agrees: a tangent on one side of a tie moves the result by half.
  CHECK(calx::jvp(calx::max, std::tuple{2.0, 2.0}, std::tuple{1.0, 0.0}).second == 0.5);
  CHECK(calx::jvp(calx::min, std::tuple{2.0, 2.0}, std::tuple{0.0, 1.0}).second == 0.5);
  // max(x, x) is x: derivative 1 (JAX: 1/2 + 1/2).
  CHECK(calx::grad([](auto x) { return calx::max(x, x); })(4.0) == 1.0);
  // A tie reached through different computations is still a tie.
  CHECK(calx::grad([](auto x) { return calx::max(x * 2.0, x + 1.0); })(1.0) == 1.5);
}
#endif

#if CALX_TEST_PART == 0
TEST_CASE("where: the cotangent flows only into the taken branch, none to the predicate",
          "[transform][grad][kinks][where]") {
  constexpr auto f = [](auto x) { return calx::where(x > 0.0, x * x, 3.0 * x); };
  CHECK(calx::grad(f)(2.0) == 4.0);
  CHECK(calx::grad(f)(-1.0) == 3.0);
  CHECK(calx::grad(f)(0.0) == 3.0);  // x > 0 is false at 0
  constexpr auto g = [](auto c, auto a, auto b) { return calx::where(c > 0.0, a, b); };
  CHECK(calx::grad(g, calx::argnums<0, 1, 2>)(1.0, 5.0, 7.0) == std::tuple{0.0, 1.0, 0.0});
  CHECK(calx::grad(g, calx::argnums<0, 1, 2>)(-1.0, 5.0, 7.0) == std::tuple{0.0, 0.0, 1.0});
  // The predicate's gradient is a symbolic zero: no node, the constant 0.
  using P = decltype(calx::trace(calx::grad(g), 1.0, 5.0, 7.0));
  STATIC_REQUIRE(P::ir.size == 4);
  STATIC_REQUIRE(calx_test::output_op(P::ir, 0) == calx_test::op_of<calx::constant_op>());
}
#endif

#if CALX_TEST_PART == 1
TEST_CASE("where: the NaN pitfall, and the double-where idiom", "[transform][grad][kinks][where]") {
  // The untaken branch's derivative still enters as 0 * (derivative there): sqrt'(-1) is NaN.
  constexpr auto naive = [](auto x) { return calx::where(x > 0.0, calx::sqrt(x), 0.0 * x); };
  CHECK(std::isnan(calx::grad(naive)(-1.0)));
  CHECK(calx::grad(naive)(4.0) == 0.25);
  // Guarding the input too gives finite gradients everywhere (docs/transforms.md).
  constexpr auto guarded = [](auto x) {
    return calx::where(x > 0.0, calx::sqrt(calx::where(x > 0.0, x, 1.0)), 0.0 * x);
  };
  CHECK(calx::grad(guarded)(-1.0) == 0.0);
  CHECK(calx::grad(guarded)(4.0) == 0.25);
}
#endif

#if CALX_TEST_PART == 1
TEST_CASE("stop_gradient: the value passes, the derivative is 0", "[transform][grad][stop_gradient]") {
  CHECK(calx::grad(calx::stop_gradient)(3.0) == 0.0);
  CHECK(calx::grad([](auto x) { return x * calx::stop_gradient(x); })(3.0) == 3.0);
  CHECK(calx::value_and_grad([](auto x) { return x * calx::stop_gradient(x * x); })(2.0) == std::pair{8.0, 4.0});
  CHECK(calx::jvp(calx::stop_gradient, std::tuple{3.0}, std::tuple{1.0}) == std::pair{3.0, 0.0});
  CHECK(std::get<0>(calx::vjp(calx::stop_gradient, 3.0).second(1.0)) == 0.0);
  using P = decltype(calx::trace(calx::grad(calx::stop_gradient), 1.0));
  STATIC_REQUIRE(P::ir.size == 2);  // the input and the constant 0
}
#endif

#if CALX_TEST_PART == 1
TEST_CASE("pow: finite derivatives at x = 0, and d/dx x^0 = 0", "[transform][grad][kinks][pow]") {
  constexpr auto d = calx::grad(calx::pow, calx::argnums<0, 1>);
  // d/dx is p x^(p-1) where p != 0; d/dp is log(x) x^p with log(0) replaced by log(1) = 0.
  CHECK(d(0.0, 2.0) == std::tuple{0.0, 0.0});
  CHECK(d(0.0, 3.0) == std::tuple{0.0, 0.0});
  CHECK(d(0.0, 1.0) == std::tuple{1.0, 0.0});
  CHECK(d(0.0, 0.0) == std::tuple{0.0, 0.0});  // not 0 * 0^-1 = NaN
  CHECK(d(2.0, 0.0) == std::tuple{0.0, std::log(2.0)});
  CHECK(d(0.0f, 2.0f) == std::tuple{0.0f, 0.0f});
  // x^0.5 at 0: d/dx is +inf (0.5 * 0^-0.5), as in JAX; d/dp stays finite.
  const auto [dx, dp] = d(0.0, 0.5);
  CHECK(dx == std::numeric_limits<double>::infinity());
  CHECK(dp == 0.0);
  // Second derivative of x^p at p = 0: 0. Forward over forward selects the taken branch's
  // tangent, so it is 0 at x = 0 too. Reverse over reverse at x = 0 is NaN, as in JAX: the
  // cotangent 0 reaches the untaken branch p x^(p-1) and meets 0^-1 = inf (the where
  // pitfall inside pow's own rule), so it is not asserted here.
  constexpr auto x_to_0 = [](auto x) { return calx::pow(x, 0.0 * x); };
  CHECK(calx::grad(calx::grad(x_to_0))(1.5) == 0.0);
  CHECK(calx::jacfwd(calx::jacfwd(x_to_0))(0.0) == 0.0);
  CHECK(calx::jacfwd(calx::jacfwd(x_to_0))(1.5) == 0.0);
}
#endif

// ---------------------------------------------------------------------------------------
// Known functions against their hand-written gradients.

constexpr auto rosenbrock2 = [](auto x, auto y) {
  auto a = 1.0 - x;
  auto b = y - x * x;
  return a * a + 100.0 * b * b;
};


#if CALX_TEST_PART == 1
TEST_CASE("Rosenbrock: gradient against the analytic formula", "[transform][grad][rosenbrock]") {
  for (auto [x, y] : {std::pair{-1.2, 1.0}, std::pair{1.0, 1.0}, std::pair{0.3, -0.4}}) {
    const auto [gx, gy] = calx::grad(rosenbrock2, calx::argnums<0, 1>)(x, y);
    CHECK(near(gx, -2 * (1 - x) - 400 * x * (y - x * x), formula_tol));
    CHECK(near(gy, 200 * (y - x * x), formula_tol));
  }
  CHECK(calx::grad(rosenbrock2, calx::argnums<0, 1>)(1.0, 1.0) == std::tuple{0.0, 0.0});  // the minimum

  const std::array<double, 4> v{-1.2, 1.0, 0.5, 2.0};
  const auto g = calx::grad(rosenbrock<4>)(v);
  for (std::size_t i = 0; i < 4; ++i) {
    double want = 0;
    if (i + 1 < 4) want += -2 * (1 - v[i]) - 400 * v[i] * (v[i + 1] - v[i] * v[i]);
    if (i > 0) want += 200 * (v[i] - v[i - 1] * v[i - 1]);
    CHECK(near(g[i], want, formula_tol));
  }
}
#endif

// Black-Scholes call price with N(z) = erfc(-z/√2)/2, and its Greeks.

#if CALX_TEST_PART == 1
TEST_CASE("Black-Scholes: the Greeks against their closed forms", "[transform][grad][black_scholes]") {
  const auto N = [](double z) { return 0.5 * std::erfc(-z / std::numbers::sqrt2); };
  const auto phi = [](double z) { return std::exp(-0.5 * z * z) / std::sqrt(2 * std::numbers::pi); };
  for (auto [S, K, r, sigma, T] : {std::tuple{100.0, 100.0, 0.05, 0.2, 1.0}, std::tuple{80.0, 100.0, 0.01, 0.35, 0.5},
                                   std::tuple{130.0, 95.0, 0.03, 0.15, 2.5}}) {
    const double sq = std::sqrt(T), d1 = (std::log(S / K) + (r + 0.5 * sigma * sigma) * T) / (sigma * sq);
    const double d2 = d1 - sigma * sq, disc = std::exp(-r * T);
    INFO("S=" << S << " K=" << K << " r=" << r << " sigma=" << sigma << " T=" << T);
    const auto [price, greeks] = calx::value_and_grad(black_scholes, calx::argnums<0, 1, 2, 3, 4>)(S, K, r, sigma, T);
    const auto [delta, dK, rho, vega, dT] = greeks;
    CHECK(near(price, S * N(d1) - K * disc * N(d2), formula_tol));
    CHECK(near(delta, N(d1), formula_tol));
    CHECK(near(dK, -disc * N(d2), formula_tol));
    CHECK(near(rho, K * T * disc * N(d2), formula_tol));
    CHECK(near(vega, S * phi(d1) * sq, formula_tol));
    CHECK(near(dT, S * phi(d1) * sigma / (2 * sq) + r * K * disc * N(d2), formula_tol));  // -theta
    // Gamma and vanna through grad of grad.
    const double gamma = calx::grad(calx::grad(black_scholes))(S, K, r, sigma, T);
    CHECK(near(gamma, phi(d1) / (S * sigma * sq), formula_tol));
    const double vanna = calx::grad(calx::grad(black_scholes), calx::argnums<3>)(S, K, r, sigma, T);
    CHECK(near(vanna, -phi(d1) * d2 / sigma, formula_tol));
  }
}
#endif

// ---------------------------------------------------------------------------------------
// The size of gradient programs, symbolic zeros, folding and CSE.

/// n statements `t = sin(t) * x`.
template <int N>
constexpr auto sin_chain = [](auto x) {
  auto t = x;
  for (int i = 0; i < N; ++i) t = calx::sin(t) * x;
  return t;
};
template <int N>
inline constexpr std::size_t f_size = decltype(calx::trace(sin_chain<N>, 1.0))::ir.size;
template <int N>
inline constexpr std::size_t grad_size = decltype(calx::trace(calx::grad(sin_chain<N>), 1.0))::ir.size;
template <int N>
inline constexpr std::size_t grad2_size = decltype(calx::trace(calx::grad(calx::grad(sin_chain<N>)), 1.0))::ir.size;

#if CALX_TEST_PART == 2  // alone: its programs reach ~1500 nodes (10 s, 1.3 GB with g++)
TEST_CASE("the gradient of an n-statement function has O(n) nodes", "[transform][grad][ir]") {
  // f: 2 nodes a statement (sin, mul) plus the input. Its gradient: ~7 a statement (the
  // primal's 2; cos, two products by the incoming cotangent, the x-cotangent product and
  // its accumulation). Measured: 68, 138, 278 nodes for n = 10, 20, 40 (7n - 2); the
  // second derivative: 178, 368, 748 (19n - 12). Bounds: 8n + 4 and 20n + 4.
  STATIC_REQUIRE(f_size<10> == 21);
  STATIC_REQUIRE(f_size<40> == 81);
  STATIC_REQUIRE(grad_size<10> <= 8 * 10 + 4);
  STATIC_REQUIRE(grad_size<20> <= 8 * 20 + 4);
  STATIC_REQUIRE(grad_size<40> <= 8 * 40 + 4);
  STATIC_REQUIRE(grad2_size<10> <= 20 * 10 + 4);
  STATIC_REQUIRE(grad2_size<20> <= 20 * 20 + 4);
  STATIC_REQUIRE(grad2_size<40> <= 20 * 40 + 4);
  // Affine in n: doubling n doubles the increment.
  STATIC_REQUIRE(grad_size<40> - grad_size<20> == 2 * (grad_size<20> - grad_size<10>));
  STATIC_REQUIRE(grad2_size<40> - grad2_size<20> == 2 * (grad2_size<20> - grad2_size<10>));
  // And the program computes the right thing: d/dx at n = 1 is cos(x) x + sin(x).
  CHECK(within_ulps(calx::grad(sin_chain<1>)(0.75), std::cos(0.75) * 0.75 + std::sin(0.75), 2));
}
#endif

constexpr auto ignores_y = [](auto x, auto y) {
  (void)y;
  return x * x;
};

constexpr bool gradients_known_to_be_zero_make_no_node() {
  using P = decltype(calx::trace(calx::grad(ignores_y, calx::argnums<1>), 1.0, 2.0));
  // Inputs a, b and the constant 0: x * x is dead, and no node was made for d/dy.
  return P::ir.size == 3 && calx_test::count_operations(P::ir) == 0 &&
         calx_test::output_op(P::ir, 0) == calx_test::op_of<calx::constant_op>() && calx_test::has_constant(P::ir, 0.0);
}

constexpr bool constants_fold_in_derivatives() {
  // (x * x)'' = 2: folded to a constant, no arithmetic left.
  using P = decltype(calx::trace(calx::grad(calx::grad([](auto x) { return x * x; })), 1.0));
  // (3 x + 4)' = 3, and (x * 2 * 5)' = 10: constants met in the rules fold.
  using Q = decltype(calx::trace(calx::grad([](auto x) { return 3.0 * x + 4.0; }), 1.0));
  using R = decltype(calx::trace(calx::grad([](auto x) { return x * 2.0 * 5.0; }), 1.0));
  return P::ir.size == 2 && calx_test::has_constant(P::ir, 2.0) && calx_test::count_operations(P::ir) == 0 &&
         Q::ir.size == 2 && calx_test::has_constant(Q::ir, 3.0) && R::ir.size == 2 &&
         calx_test::has_constant(R::ir, 10.0);
}

constexpr bool derivative_programs_share_subexpressions() {
  // sin(x) * sin(x): one sin, and its derivative's cos once.
  using P = decltype(calx::trace(calx::grad([](auto x) { return calx::sin(x) * calx::sin(x); }), 1.0));
  // x * y * sin(x): the value's sin and the derivative's cos appear once each, and the
  // product x*y the value computes is reused by the derivative.
  using Q = decltype(calx::trace(calx::grad([](auto x, auto y) { return x * y * calx::sin(x); }, calx::argnums<0, 1>),
                                 1.0, 2.0));
  return count_op<calx::sin_op>(P::ir) == 1 && count_op<calx::cos_op>(P::ir) == 1 &&
         count_op<calx::sin_op>(Q::ir) == 1 && count_op<calx::cos_op>(Q::ir) == 1 && Q::ir.size <= 10;
}

#if CALX_TEST_PART == 1
TEST_CASE("derivative programs: symbolic zeros, constant folding, CSE", "[transform][grad][ir]") {
  CHECK(gradients_known_to_be_zero_make_no_node());
  STATIC_REQUIRE(gradients_known_to_be_zero_make_no_node());
  CHECK(constants_fold_in_derivatives());
  STATIC_REQUIRE(constants_fold_in_derivatives());
  CHECK(derivative_programs_share_subexpressions());
  STATIC_REQUIRE(derivative_programs_share_subexpressions());
  CHECK(calx::to_string(calx::trace(calx::grad(calx::grad([](auto x) { return x * x; })), 1.0)) ==
        "{ lambda a:f64 . let\n  in (2.0) }");
}
#endif

// ---------------------------------------------------------------------------------------
// Misuse that is rejected by constraints (requires-friendly); the misuses that stop
// compilation with a message are in tests/fail/grad_*.cpp.

#if CALX_TEST_PART == 1
TEST_CASE("grad: rejections a requires-expression can see", "[transform][grad][rejection]") {
  // Ops check their arity. (A mask where an op takes a number is a call that compiles to
  // one message, naming the op: tests/fail/mask_op_operand.cpp.)
  STATIC_REQUIRE(!std::invocable<decltype(calx::sin), calx::tracer, calx::tracer>);
  STATIC_REQUIRE(std::invocable<decltype(calx::sin), calx::tracer>);
  STATIC_REQUIRE(!std::invocable<decltype(calx::where), double, double, double>);
  // NOTE: calx::grad(f) for a misused f (captures, non-scalar output, bad argnums) is
  // rejected by a static_assert in the body, not by a constraint, so
  // std::invocable<decltype(calx::grad(f)), double> is a hard error rather than false
  // (STYLE points 12 and 23 pull in different directions here; reported to the lead).
  SUCCEED();
}
#endif

// ---------------------------------------------------------------------------------------
// The law table covers every differentiable primitive.

template <class... Op>
std::vector<std::string> ops_without_law_rows(calx::detail::type_list<Op...>) {
  const auto names = calx_test::laws::row_names();
  std::vector<std::string> missing;
  auto check = [&]<class O>(std::type_identity<O>) {
    if constexpr (std::is_same_v<O, calx::input_op> || std::is_same_v<O, calx::constant_op> ||
                  std::is_same_v<O, calx::get_op>) {
      return;  // structural, not operations
    } else if constexpr (calx::detail::is_tensor_builtin_v<O>) {
      return;  // tensor ops: their laws are tests/tensor.laws.cpp's
    } else {
      const std::string op = calx::op_traits<O>::name;
      // Batch ops are vmap's: their laws are vmap's suite.
      if (op == "batch_sum" || op == "broadcast" || op == "batch_size") return;
      // Comparisons make masks; they are covered as where's predicate.
      const std::string row = calx::detail::result_v<O> == calx::detail::value_kind::boolean ? "where(" + op + ")" : op;
      for (const char* n : names)
        if (row == n) return;
      missing.push_back(op);
    }
  };
  (check(std::type_identity<Op>{}), ...);
  return missing;
}

#if CALX_TEST_PART == 1
TEST_CASE("every primitive has a row in the law table", "[transform][grad][laws]") {
  CHECK(ops_without_law_rows(calx::detail::builtin_ops{}) == std::vector<std::string>{});
}
#endif

}  // namespace

#endif  // CALX_TESTS_GRAD_CASES_HPP
