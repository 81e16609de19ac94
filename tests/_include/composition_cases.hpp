/// @file tests/_include/composition_cases.hpp
/// @brief The cases of tests/composition.*.cpp, split into translation units for the
/// compile budget (each TU defines CALX_TEST_PART and includes this): transforms of
/// transforms: grad³ against closed forms, jvp of grad, grad of jvp, vjp and linearize
/// inside a traced function, jacfwd(jacrev(f)) on vector functions, perturbation confusion
/// (an inner transform receives the outer tracer through its arguments and must not mix
/// the two perturbations), stop_gradient inside nested transforms, and the IR size of
/// derivatives of order 1 to 4. The differentiation laws on composite functions are in
/// grad.laws.composite.*.cpp.
#ifndef CALX_TESTS_COMPOSITION_CASES_HPP
#define CALX_TESTS_COMPOSITION_CASES_HPP

#include <_include/float_compare.hpp>
#include <_include/ir_inspect.hpp>
#include <_include/test_functions.hpp>

#include <calx/calx.hpp>

#include <catch2/catch.hpp>

#include <array>
#include <cmath>
#include <cstddef>
#include <numbers>
#include <tuple>
#include <type_traits>
#include <utility>

namespace {

using calx_test::black_scholes;


/// |got - want| <= rel * (1 + |want|): calx's derivative program and the closed form are
/// the same value computed in different orders, a few ulp apart per operation; third
/// derivatives are ~30 operations, so 1e-13 relative (~450 ulp) with margin.
bool near(double got, double want, double rel = 1e-13) { return std::abs(got - want) <= rel * (1 + std::abs(want)); }

template <class F>
constexpr auto grad3(F f) {
  return calx::grad(calx::grad(calx::grad(f)));
}

#if CALX_TEST_PART == 0  // grad³
TEST_CASE("grad(grad(grad(f))) on polynomials: exact", "[transform][composition][higher_order]") {
  // Small integers and dyadic points: every operation is exact, so the results are too.
  constexpr auto p5 = [](auto x) { return x * x * x * x * x; };
  constexpr auto p4 = [](auto x) { return 3.0 * x * x * x * x - 2.0 * x * x * x + x - 7.0; };
  for (double x : {-2.0, -0.5, 0.0, 0.25, 3.0}) {
    CHECK(grad3(p5)(x) == 60.0 * x * x);
    CHECK(grad3(p4)(x) == 72.0 * x - 12.0);
    CHECK(calx::grad(grad3(p4))(x) == 72.0);
    CHECK(calx::grad(calx::grad(grad3(p4)))(x) == 0.0);  // the fifth derivative
  }
  // A polynomial in two variables, mixed third partial ∂x∂y∂x of x³ y² = 12 x y.
  constexpr auto p = [](auto x, auto y) { return x * x * x * y * y; };
  const auto dxy = calx::grad(calx::grad(p), calx::argnums<1>);
  CHECK(calx::grad(dxy)(1.5, -2.0) == 12.0 * 1.5 * -2.0);
  STATIC_REQUIRE(std::is_same_v<decltype(grad3(p5)(1.0f)), float>);
  CHECK(grad3(p5)(2.0f) == 240.0f);
}

TEST_CASE("grad(grad(grad(f))) on transcendental functions", "[transform][composition][higher_order]") {
  for (double x : {-1.3, 0.2, 0.9, 2.5}) {
    INFO("x = " << x);
    CHECK(near(grad3(calx::sin)(x), -std::cos(x)));
    CHECK(near(grad3(calx::cos)(x), std::sin(x)));
    CHECK(near(grad3([](auto t) { return calx::exp(2.0 * t); })(x), 8.0 * std::exp(2.0 * x)));
    CHECK(near(grad3([](auto t) { return t * calx::sin(t); })(x), -3.0 * std::sin(x) - x * std::cos(x)));
    const double th = std::tanh(x), s2 = 1 - th * th;  // tanh''' = -2 sech² (1 - 3 tanh²)
    CHECK(near(grad3(calx::tanh)(x), -2.0 * s2 * (1 - 3 * th * th)));
    const double sg = 1 / (1 + std::exp(-x));  // σ''' = σ(1-σ)(1 - 6σ + 6σ²)
    CHECK(near(grad3(calx::sigmoid)(x), sg * (1 - sg) * (1 - 6 * sg + 6 * sg * sg)));
    const double e = std::exp(-x * x) * 2 / std::sqrt(std::numbers::pi);  // erf''' = (4x² - 2) erf'
    CHECK(near(grad3(calx::erf)(x), (4 * x * x - 2) * e));
  }
  for (double x : {0.3, 1.0, 4.0}) {
    CHECK(near(grad3(calx::log)(x), 2.0 / (x * x * x)));
    CHECK(near(grad3(calx::sqrt)(x), 3.0 / (8.0 * std::pow(x, 2.5))));
    CHECK(near(grad3([](auto t) { return calx::pow(t, 3.5); })(x), 3.5 * 2.5 * 1.5 * std::pow(x, 0.5)));
  }
}
#endif

#if CALX_TEST_PART == 0  // jvp of grad, grad of jvp

constexpr auto exp_sin = [](auto x) { return calx::exp(x) * calx::sin(x); };  // f'' = 2 eˣ cos x
// Reverse over forward: the jvp's tangent as a function of the primal.
constexpr auto exp_sin_tangent = [](auto y, auto t) { return calx::jvp(exp_sin, std::tuple{y}, std::tuple{t}).second; };
// Reverse over reverse, through the pullback inside a traced function; a plain number as
// the cotangent becomes a constant node.
constexpr auto exp_sin_pulled = [](auto y) {
  const auto [v, pb] = calx::vjp(exp_sin, y);
  (void)v;
  return std::get<0>(pb(1.0));
};
// And through linearize's map.
constexpr auto exp_sin_linear = [](auto y, auto t) {
  const auto [v, lin] = calx::linearize(exp_sin, y);
  (void)v;
  return lin(t);
};

TEST_CASE("jvp of grad, grad of jvp: the second derivative in a direction", "[transform][composition]") {
  for (double x : {-0.4, 0.8, 1.7}) {
    const double f2 = 2.0 * std::exp(x) * std::cos(x);
    // Forward over reverse.
    const auto [g, tg] = calx::jvp(calx::grad(exp_sin), std::tuple{x}, std::tuple{0.5});
    CHECK(near(g, std::exp(x) * (std::sin(x) + std::cos(x))));
    CHECK(near(tg, 0.5 * f2));
    // Reverse over forward.
    CHECK(near(calx::grad(exp_sin_tangent)(x, 0.5), 0.5 * f2));
    CHECK(near(calx::grad(exp_sin_tangent, calx::argnums<1>)(x, 0.5), calx::grad(exp_sin)(x)));  // linear in t
    // Forward over forward.
    CHECK(near(calx::jvp(exp_sin_tangent, std::tuple{x, 0.5}, std::tuple{1.0, 0.0}).second, 0.5 * f2));
    // Reverse over reverse, and over linearize.
    CHECK(near(calx::grad(exp_sin_pulled)(x), f2));
    CHECK(near(calx::grad(exp_sin_linear)(x, 0.5), 0.5 * f2));
    CHECK(near(calx::jvp(exp_sin_pulled, std::tuple{x}, std::tuple{2.0}).second, 2.0 * f2));
  }
}

#endif

#if CALX_TEST_PART == 0  // jacfwd(jacrev)
TEST_CASE("jacfwd(jacrev(f)) on a vector function: the second-derivative tensor", "[transform][composition]") {
  // F(x, y) = (x² y, sin(x y)): T[o][i][j] = ∂²F_o / ∂i ∂j.
  constexpr auto F = [](auto x, auto y) { return std::tuple{x * x * y, calx::sin(x * y)}; };
  const double x = 0.6, y = -1.4;
  constexpr auto an = calx::argnums<0, 1>;
  const auto t_fr = calx::jacfwd(calx::jacrev(F, an), an)(x, y);
  const auto t_rf = calx::jacrev(calx::jacfwd(F, an), an)(x, y);
  const auto t_ff = calx::jacfwd(calx::jacfwd(F, an), an)(x, y);
  const auto t_rr = calx::jacrev(calx::jacrev(F, an), an)(x, y);
  // Output ⊗ input ⊗ input, as tuples.
  using T2 = std::tuple<std::tuple<double, double>, std::tuple<double, double>>;
  STATIC_REQUIRE(std::is_same_v<decltype(t_fr), const std::tuple<T2, T2>>);
  const double s = std::sin(x * y), c = std::cos(x * y);
  const T2 want0{{2 * y, 2 * x}, {2 * x, 0.0}};
  CHECK(std::get<0>(t_fr) == want0);
  const auto& [r0, r1] = std::get<1>(t_fr);
  CHECK(near(std::get<0>(r0), -y * y * s));
  CHECK(near(std::get<1>(r0), c - x * y * s));
  CHECK(near(std::get<0>(r1), c - x * y * s));
  CHECK(near(std::get<1>(r1), -x * x * s));
  // The four compositions agree: the same terms summed in other orders, so they differ by
  // a few ulp of the terms (~1, not of the results: c - x y s cancels to ~0.04 here);
  // 1e-14 absolute+relative is ~50 ulp of the terms.
  const auto flat = [](const std::tuple<T2, T2>& t) {
    std::array<double, 8> a{};
    std::size_t k = 0;
    std::apply([&](const auto&... m) {
      ((std::apply([&](const auto&... r) { ((std::apply([&](auto... e) { ((a[k++] = e), ...); }, r)), ...); }, m)), ...);
    }, t);
    return a;
  };
  const auto a = flat(t_fr), b = flat(t_rf), cc = flat(t_ff), d = flat(t_rr);
  for (std::size_t i = 0; i < 8; ++i) {
    INFO("entry " << i << ": " << calx_test::text(a[i]) << " " << calx_test::text(b[i]) << " "
                  << calx_test::text(cc[i]) << " " << calx_test::text(d[i]));
    CHECK(near(b[i], a[i], 1e-14));
    CHECK(near(cc[i], a[i], 1e-14));
    CHECK(near(d[i], a[i], 1e-14));
  }
}

#endif

#if CALX_TEST_PART == 1  // perturbation confusion, stop_gradient
// ---------------------------------------------------------------------------------------
// Perturbation confusion: nested transforms must keep their perturbations apart.

// The classic (Siskind & Pearlmutter): the inner derivative is 1 whatever x is, so the
// outer is d/dx x = 1. Confusing the two perturbations gives 2.
constexpr auto x_plus_y = [](auto x, auto y) { return x + y; };
constexpr auto x_times_d_plus = [](auto x) { return x * calx::grad(x_plus_y, calx::argnums<1>)(x, x); };
// d/dx [x · d/dy (x y)] = d/dx x² = 2x (confusion gives 3x or x).
constexpr auto x_times_y = [](auto x, auto y) { return x * y; };
constexpr auto x_times_d_times = [](auto x) { return x * calx::grad(x_times_y, calx::argnums<1>)(x, x); };
// The same with forward mode inside.
constexpr auto x_times_jvp_times = [](auto x) {
  return x * calx::jvp(x_times_y, std::tuple{x, x}, std::tuple{0.0 * x, 1.0 + 0.0 * x}).second;
};

TEST_CASE("perturbation confusion: d/dx [x · d/dy (x + y)] at y = x is 1", "[transform][composition][confusion]") {
  CHECK(calx::grad(x_times_d_plus)(1.0) == 1.0);
  CHECK(calx::grad(x_times_d_plus)(-3.5) == 1.0);
  CHECK(calx::jvp(x_times_d_plus, std::tuple{2.0}, std::tuple{1.0}).second == 1.0);
  CHECK(calx::jacrev(x_times_d_plus)(2.0) == 1.0);
  CHECK(calx::grad(x_times_d_times)(1.5) == 3.0);
  CHECK(calx::jvp(x_times_d_times, std::tuple{1.5}, std::tuple{1.0}).second == 3.0);
  CHECK(calx::grad(x_times_jvp_times)(1.5) == 3.0);
  CHECK(calx::grad(calx::grad(x_times_d_times))(1.5) == 2.0);
}

// g(x, y) = x sin(y): ∂g/∂y = x cos(y). h(x) = x · ∂g/∂y (x, x) = x² cos x, so
// h' = 2x cos x - x² sin x.
constexpr auto x_sin_y = [](auto x, auto y) { return x * calx::sin(y); };
constexpr auto x_dy = [](auto x) { return x * calx::grad(x_sin_y, calx::argnums<1>)(x, x); };
// Three levels, each inner function closing over nothing but its arguments: h'(x²).
constexpr auto dx_dy_of_square = [](auto x) { return calx::grad(x_dy)(x * x); };

TEST_CASE("an inner transform receives the outer tracer through its arguments", "[transform][composition][confusion]") {
  for (double x : {-0.8, 0.4, 2.2}) {
    CHECK(near(x_dy(x), x * x * std::cos(x)));
    CHECK(near(calx::grad(x_dy)(x), 2 * x * std::cos(x) - x * x * std::sin(x)));
    CHECK(near(calx::grad(calx::grad(x_dy))(x), 2 * std::cos(x) - 4 * x * std::sin(x) - x * x * std::cos(x)));
  }
  const double x = 0.7, u = x * x;
  CHECK(near(calx::grad(dx_dy_of_square)(x), 2 * x * (2 * std::cos(u) - 4 * u * std::sin(u) - u * u * std::cos(u))));
}

TEST_CASE("stop_gradient inside nested transforms", "[transform][composition][stop_gradient]") {
  // f(x) = x³ · sg(x): the stopped factor is a constant c = x at every order:
  // f' = 3x² c, f'' = 6x c, f''' = 6c.
  constexpr auto f = [](auto x) { return x * x * x * calx::stop_gradient(x); };
  const double x = 1.5;
  CHECK(calx::grad(f)(x) == 3 * x * x * x);
  CHECK(calx::grad(calx::grad(f))(x) == 6 * x * x);
  CHECK(grad3(f)(x) == 6 * x);
  CHECK(calx::hessian(f)(x) == 6 * x * x);
  CHECK(calx::jacfwd(calx::jacfwd(f))(x) == 6 * x * x);
  // Stopping an inner gradient: d/dx [x · sg(g'(x))] = g'(x) for g = x².
  constexpr auto h = [](auto y) { return y * calx::stop_gradient(calx::grad([](auto t) { return t * t; })(y)); };
  CHECK(calx::grad(h)(x) == 2 * x);
  // A gradient of a stopped input: grad(f)(sg(x)) does not depend on x to an outer grad.
  constexpr auto k = [](auto y) { return calx::grad([](auto t) { return t * t * t; })(calx::stop_gradient(y)) + y; };
  CHECK(calx::grad(k)(x) == 1.0);
  // An inner transform of a function with stop_gradient keeps it stopped.
  constexpr auto m = [](auto y) { return calx::grad([](auto t) { return t * calx::stop_gradient(t * t); })(y) * y; };
  // The inner gradient is sg(t²) = y², still stopped inside the outer trace: m = sg(y²) y,
  // so m' = y² (not 3y²).
  CHECK(calx::grad(m)(x) == x * x);
}

#endif

#if CALX_TEST_PART == 1  // IR size of grad^k
// ---------------------------------------------------------------------------------------
// IR size of derivatives of order 1 to 4.

template <class F>
inline constexpr std::size_t bs_size = decltype(calx::trace(F{}, 1.0, 1.0, 1.0, 1.0, 1.0))::ir.size;
using bs0 = decltype(black_scholes);
using bs1 = decltype(calx::grad(black_scholes));
using bs2 = decltype(calx::grad(bs1{}));
using bs3 = decltype(calx::grad(bs2{}));
using bs4 = decltype(calx::grad(bs3{}));

TEST_CASE("IR size of grad^k of Black-Scholes, k = 0..4", "[transform][composition][ir]") {
  // Nodes (inputs and constants included), measured: 33, 53, 83, 146, 264. Each order
  // at most ~1.8x the previous: the derivative of an n-node program is O(n) nodes, and
  // symbolic zeros, folding and CSE keep the constant small. The bounds leave ~10%.
  STATIC_REQUIRE(bs_size<bs0> <= 36);
  STATIC_REQUIRE(bs_size<bs1> <= 58);
  STATIC_REQUIRE(bs_size<bs2> <= 92);
  STATIC_REQUIRE(bs_size<bs3> <= 160);
  STATIC_REQUIRE(bs_size<bs4> <= 290);
  STATIC_REQUIRE(bs_size<bs4> <= 2 * bs_size<bs3>);
  // The fourth derivative in S is right: ∂⁴C/∂S⁴ = ∂²Γ/∂S² with Γ = φ(d1)/(S σ √T).
  const double S = 100, K = 95, r = 0.03, sigma = 0.25, T = 0.75;
  const double sq = std::sqrt(T), v = sigma * sq;
  const double d1 = (std::log(S / K) + (r + 0.5 * sigma * sigma) * T) / v;
  const double phi = std::exp(-0.5 * d1 * d1) / std::sqrt(2 * std::numbers::pi);
  // Γ' = -Γ (1 + d1/v)/S; Γ'' = Γ (d1² + 3 v d1 + 2 v² - 1)/(S v)²
  const double gamma = phi / (S * v);
  const double speed = -gamma * (1 + d1 / v) / S;
  const double d4 = gamma * (d1 * d1 + 3 * v * d1 + 2 * v * v - 1) / (S * S * v * v);
  // Relative checks (the values are small): measured 0, 2e-16 and 2e-15; 1e-13 is ~450 ulp.
  const auto rel = [](double got, double want) { return std::abs(got - want) <= 1e-13 * std::abs(want); };
  CHECK(rel(bs2{}(S, K, r, sigma, T), gamma));
  CHECK(rel(bs3{}(S, K, r, sigma, T), speed));
  CHECK(rel(bs4{}(S, K, r, sigma, T), d4));
}

#endif

}  // namespace

#endif  // CALX_TESTS_COMPOSITION_CASES_HPP
