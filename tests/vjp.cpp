/// @file tests/vjp.cpp
/// @brief `calx::vjp(f, x...)`: the value and a pullback; one cotangent per primal with the
/// primal's structure; functions with several outputs; has_aux; the pullback as a value
/// (called many times, copied) that runs only the backward program. The laws (vjp against
/// finite differences, the adjoint identity, rev-of-rev) are instantiated for every
/// primitive in grad.laws.*.cpp; misuse that stops compilation is in tests/fail/vjp_*.cpp.

#include <_include/float_compare.hpp>
#include <_include/ir_inspect.hpp>

#include <calx/calx.hpp>

#include <catch2/catch.hpp>

#include <array>
#include <cmath>
#include <concepts>
#include <cstddef>
#include <tuple>
#include <type_traits>
#include <utility>

namespace {

using calx_test::count_op;
using calx_test::within_ulps;

/// The backward program a pullback runs, as IR.
template <class Late, class L, std::size_t R, class Ct, class Result>
constexpr const auto& backward_ir(const calx::pullback<calx::detail::late_call<Late, L, R>, Ct, Result>&) {
  return calx::detail::ir_v<Late>;
}
/// How many values a pullback holds from the forward pass.
template <class Late, class L, std::size_t R, class Ct, class Result>
constexpr std::size_t residual_count(const calx::pullback<calx::detail::late_call<Late, L, R>, Ct, Result>&) {
  return R;
}

TEST_CASE("vjp: the value and a pullback giving one cotangent per primal", "[transform][vjp]") {
  constexpr auto f = [](auto x, auto y) { return x * calx::sin(y); };
  const auto [v, pb] = calx::vjp(f, 2.0, 0.5);
  CHECK(v == 2.0 * std::sin(0.5));
  const auto [cx, cy] = pb(1.0);
  CHECK(cx == std::sin(0.5));
  CHECK(cy == 2.0 * std::cos(0.5));
  STATIC_REQUIRE(std::is_same_v<decltype(pb(1.0)), std::tuple<double, double>>);
  // Linear in the cotangent.
  CHECK(pb(-3.0) == std::tuple{-3.0 * cx, cy * -3.0});
  CHECK(pb(0.0) == std::tuple{0.0, 0.0});
  // One primal: a one-element tuple, as JAX's vjp returns.
  const auto [ve, pbe] = calx::vjp(calx::exp, 1.0);
  CHECK(ve == std::exp(1.0));
  CHECK(pbe(2.0) == std::tuple{2.0 * std::exp(1.0)});
  // float
  const auto [vf, pbf] = calx::vjp(f, 2.0f, 0.5f);
  STATIC_REQUIRE(std::is_same_v<decltype(vf), const float>);
  STATIC_REQUIRE(std::is_same_v<decltype(pbf(1.0f)), std::tuple<float, float>>);
  CHECK(std::get<0>(pbf(1.0f)) == std::sin(0.5f));
}

TEST_CASE("vjp: several outputs take a cotangent of the output's structure", "[transform][vjp][tree]") {
  // (r, θ) -> (r cos θ, r sin θ): the pullback of a unit cotangent on one output is that
  // row of the Jacobian.
  constexpr auto polar = [](auto r, auto th) { return std::tuple{r * calx::cos(th), r * calx::sin(th)}; };
  const double r = 2.0, th = 0.3;
  const auto [v, pb] = calx::vjp(polar, r, th);
  CHECK(v == std::tuple{r * std::cos(th), r * std::sin(th)});
  CHECK(pb(std::tuple{1.0, 0.0}) == std::tuple{std::cos(th), -(r * std::sin(th))});
  CHECK(pb(std::tuple{0.0, 1.0}) == std::tuple{std::sin(th), r * std::cos(th)});
  const auto [gr, gth] = pb(std::tuple{0.5, -2.0});
  CHECK(within_ulps(gr, 0.5 * std::cos(th) - 2.0 * std::sin(th), 4));
  CHECK(within_ulps(gth, -0.5 * r * std::sin(th) - 2.0 * r * std::cos(th), 4));
}

TEST_CASE("vjp: structured primals get cotangents of the same structure", "[transform][vjp][tree]") {
  constexpr auto f = [](const auto& v, const auto& p) { return v[0] * p.first + v[1] * v[2] * p.second; };
  const std::array<double, 3> v{1.0, 2.0, 3.0};
  const std::pair<double, double> p{4.0, 5.0};
  const auto [y, pb] = calx::vjp(f, v, p);
  CHECK(y == 4.0 + 30.0);
  const auto [cv, cp] = pb(2.0);
  STATIC_REQUIRE(std::is_same_v<decltype(cv), const std::array<double, 3>>);
  STATIC_REQUIRE(std::is_same_v<decltype(cp), const std::pair<double, double>>);
  CHECK(cv == std::array{8.0, 30.0, 20.0});
  CHECK(cp == std::pair{2.0, 12.0});
  // A std::array output takes a std::array cotangent.
  const auto [ya, pba] = calx::vjp([](const auto& u) { return std::array{u[0] * u[1], u[2]}; }, v);
  CHECK(ya == std::array{2.0, 3.0});
  CHECK(pba(std::array{1.0, 10.0}) == std::tuple{std::array{2.0, 1.0, 10.0}});
}

TEST_CASE("vjp with has_aux: (value, pullback, aux)", "[transform][vjp][has_aux]") {
  constexpr auto f = [](auto x, auto y) { return std::pair{x * y, std::array{x + y, x - y}}; };
  const auto [v, pb, aux] = calx::vjp(f, calx::has_aux, 2.0, 3.0);
  CHECK(v == 6.0);
  CHECK(aux == std::array{5.0, -1.0});
  CHECK(pb(1.0) == std::tuple{3.0, 2.0});
  STATIC_REQUIRE(std::is_same_v<decltype(aux), const std::array<double, 2>>);
}

TEST_CASE("vjp: a pullback is a value: called many times, copied, identical results", "[transform][vjp]") {
  constexpr auto f = [](auto x, auto y) { return calx::exp(x * y) / (1.0 + x * x); };
  const auto [v, pb] = calx::vjp(f, 0.7, -1.3);
  const auto first = pb(1.0);
  const auto other = pb(-2.5);
  const auto copy = pb;
  for (int i = 0; i < 3; ++i) {
    CHECK(pb(1.0) == first);
    CHECK(copy(1.0) == first);
    CHECK(copy(-2.5) == other);
  }
  (void)v;
}

constexpr auto sin_x_times_x = [](auto x) { return calx::sin(x) * x; };

TEST_CASE("vjp: the pullback runs only the backward program, from residuals", "[transform][vjp][ir]") {
  const auto [v, pb] = calx::vjp(sin_x_times_x, 0.9);
  // d/dx = cos(x) x + sin(x): sin and cos depend only on x, so they are computed in the
  // forward pass and held as residuals (x, sin x, cos x); the pullback multiplies and adds:
  // ct sin x + cos x (x ct), 4 operations.
  constexpr const auto& ir = backward_ir(decltype(pb){});
  STATIC_REQUIRE(count_op<calx::sin_op>(ir) == 0);
  STATIC_REQUIRE(count_op<calx::cos_op>(ir) == 0);
  STATIC_REQUIRE(calx_test::count_operations(ir) <= 4);
  STATIC_REQUIRE(residual_count(decltype(pb){}) <= 3);
  CHECK(within_ulps(std::get<0>(pb(1.0)), std::sin(0.9) + 0.9 * std::cos(0.9), 2));
  (void)v;
}

/// `M(T...)` resolves to an overload returning `R`.
template <class M, class R, class... T>
concept call_returns = requires(const M& m, const T&... t) {
  { m(t...) } -> std::same_as<R>;
};

TEST_CASE("vjp: rejections a requires-expression can see", "[transform][vjp][rejection]") {
  // The pullback has one overload for a cotangent with the output's structure and
  // precision, and a poisoned one for anything else (static_assert in its body:
  // tests/fail/vjp_cotangent_*.cpp). Which one a call picks is visible without
  // instantiating either: a wrong cotangent is still invocable (so calx's message fires),
  // but does not give the cotangents.
  constexpr auto polar = [](auto r, auto th) { return std::tuple{r * calx::cos(th), r * calx::sin(th)}; };
  using PB = decltype(calx::vjp(polar, 1.0, 0.5).second);
  using R = std::tuple<double, double>;
  STATIC_REQUIRE(call_returns<PB, R, std::tuple<double, double>>);
  STATIC_REQUIRE(std::invocable<const PB&, double>);
  STATIC_REQUIRE(!call_returns<PB, R, double>);
  STATIC_REQUIRE(!call_returns<PB, R, std::tuple<double, double, double>>);
  STATIC_REQUIRE(!call_returns<PB, R, std::array<double, 2>>);
  // The cotangent's precision is the output's, as in JAX.
  constexpr bool float_cotangent_is_refused = !call_returns<PB, R, std::tuple<float, float>>;
  CHECK(float_cotangent_is_refused);
}

}  // namespace
