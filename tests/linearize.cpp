/// @file tests/linearize.cpp
/// @brief `calx::linearize(f, x...)`: the value and the linear map of tangents at x, equal
/// to jvp's tangent; structured arguments and outputs; has_aux; the linear map as a value
/// (linear, called many times, copied) that runs only the tangent part from residuals.
/// The laws (linearize == jvp for every primitive, and for the second-order maps' jvp via
/// check_grads) are in grad.laws.*.cpp.

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

template <class Late, class L, std::size_t R, class V, class... A>
constexpr const auto& tangent_ir(const calx::linear_map<calx::detail::late_call<Late, L, R>, V, A...>&) {
  return calx::detail::ir_v<Late>;
}

/// `M(T...)` resolves to an overload returning `R`.
template <class M, class R, class... T>
concept call_returns = requires(const M& m, const T&... t) {
  { m(t...) } -> std::same_as<R>;
};

constexpr auto f = [](auto x, auto y) { return calx::exp(x * y) / (1.0 + x * x); };

TEST_CASE("linearize: the value, and a linear map equal to jvp's tangent", "[transform][linearize]") {
  const double x = 0.7, y = -1.3;
  const auto [v, lin] = calx::linearize(f, x, y);
  CHECK(v == f(x, y));
  for (auto [tx, ty] : {std::pair{1.0, 0.0}, std::pair{0.0, 1.0}, std::pair{0.3, -2.0}}) {
    const auto [jv, jt] = calx::jvp(f, std::tuple{x, y}, std::tuple{tx, ty});
    CHECK(jv == v);
    // The same tangent program, split in two at the residuals: the same operations in
    // the same order, so the same bits.
    CHECK(lin(tx, ty) == jt);
  }
  STATIC_REQUIRE(std::is_same_v<decltype(lin(1.0, 0.0)), double>);
  const auto [vf, linf] = calx::linearize(f, 0.7f, -1.3f);
  STATIC_REQUIRE(std::is_same_v<decltype(linf(1.0f, 0.0f)), float>);
  CHECK(linf(1.0f, 0.5f) == calx::jvp(f, std::tuple{0.7f, -1.3f}, std::tuple{1.0f, 0.5f}).second);
  (void)vf;
}

TEST_CASE("linearize: the map is linear, and a value", "[transform][linearize]") {
  const auto [v, lin] = calx::linearize(f, 0.7, -1.3);
  const double a = lin(1.0, 0.0), b = lin(0.0, 1.0);
  // Linear: lin(s, t) = s lin(1, 0) + t lin(0, 1), up to the rounding of the sum (the
  // partial derivatives are O(1) here; 1e-15 absolute is ~8 ulp).
  CHECK(std::abs(lin(2.0, -3.0) - (2.0 * a - 3.0 * b)) <= 1e-15);
  CHECK(lin(0.0, 0.0) == 0.0);
  const auto copy = lin;
  for (int i = 0; i < 3; ++i) {
    CHECK(lin(1.0, 0.0) == a);
    CHECK(copy(0.0, 1.0) == b);
  }
  (void)v;
}

TEST_CASE("linearize: structured arguments and outputs", "[transform][linearize][tree]") {
  constexpr auto g = [](const auto& v, auto s) { return std::pair{v[0] * v[1] * s, std::array{v[2] - s, v[0]}}; };
  const std::array<double, 3> v{1.0, 2.0, 3.0};
  const auto [y, lin] = calx::linearize(g, v, 4.0);
  CHECK(y == std::pair{8.0, std::array{-1.0, 1.0}});
  const auto t = lin(std::array{1.0, 0.0, 2.0}, 0.5);
  STATIC_REQUIRE(std::is_same_v<decltype(t), const std::pair<double, std::array<double, 2>>>);
  CHECK(t == std::pair{2.0 * 4.0 + 1.0 * 2.0 * 0.5, std::array{2.0 - 0.5, 1.0}});
  CHECK(t == calx::jvp(g, std::tuple{v, 4.0}, std::tuple{std::array{1.0, 0.0, 2.0}, 0.5}).second);
}

TEST_CASE("linearize with has_aux: (value, linear map, aux)", "[transform][linearize][has_aux]") {
  constexpr auto g = [](auto x) { return std::pair{calx::sin(x), std::tuple{x * x, calx::cos(x)}}; };
  const auto [v, lin, aux] = calx::linearize(g, calx::has_aux, 0.5);
  CHECK(v == std::sin(0.5));
  CHECK(lin(2.0) == 2.0 * std::cos(0.5));
  CHECK(aux == std::tuple{0.25, std::cos(0.5)});
}

TEST_CASE("linearize with argnums: a map of the named arguments' tangents", "[transform][linearize][argnums]") {
  // f(x, y) with y as data: lin(tx) is jvp's tangent with ty = 0, bit for bit.
  const double x = 0.7, y = -1.3;
  const auto [v, lin] = calx::linearize(f, calx::argnums<0>, x, y);
  CHECK(v == f(x, y));
  for (double tx : {1.0, -0.25, 3.0}) CHECK(lin(tx) == calx::jvp(f, std::tuple{x, y}, std::tuple{tx, 0.0}).second);
  using Lin = decltype(lin);
  STATIC_REQUIRE(call_returns<Lin, double, double>);
  STATIC_REQUIRE(!call_returns<Lin, double, double, double>);
  // Tangents in argnums' order; negative indices; the map holds no tangent input for y.
  const auto [v2, lin2] = calx::linearize(f, calx::argnums<-1, 0>, x, y);
  CHECK(lin2(0.5, 2.0) == calx::jvp(f, std::tuple{x, y}, std::tuple{2.0, 0.5}).second);
  constexpr const auto& ir = tangent_ir(decltype(lin){});
  STATIC_REQUIRE(std::remove_cvref_t<decltype(ir)>::input_leaves == decltype(lin)::residuals + 1);
  // has_aux with argnums, in either order; integer data.
  constexpr auto g = [](auto a, auto n) { return std::pair{calx::sin(a) * n, n + 1}; };
  const auto [v3, lin3, aux] = calx::linearize(g, calx::argnums<0>, calx::has_aux, 0.5, 3);
  CHECK(v3 == std::sin(0.5) * 3);
  CHECK(lin3(2.0) == 2.0 * std::cos(0.5) * 3);
  CHECK(aux == 4);
  const auto [v4, lin4, aux4] = calx::linearize(g, calx::has_aux, calx::argnums<0>, 0.5, 3);
  CHECK(lin4(2.0) == lin3(2.0));
  (void)v2;
  (void)v4;
  (void)aux4;
}

TEST_CASE("linearize: the map runs only the tangent part, from residuals", "[transform][linearize][ir]") {
  const auto [v, lin] = calx::linearize([](auto x) { return calx::sin(x) * x; }, 0.9);
  // The tangent t (cos x · x + sin x) needs x, sin x and cos x, computed once by
  // linearize; calling the map evaluates no transcendental function.
  constexpr const auto& ir = tangent_ir(decltype(lin){});
  STATIC_REQUIRE(count_op<calx::sin_op>(ir) == 0);
  STATIC_REQUIRE(count_op<calx::cos_op>(ir) == 0);
  STATIC_REQUIRE(calx_test::count_operations(ir) <= 4);
  CHECK(within_ulps(lin(1.0), std::cos(0.9) * 0.9 + std::sin(0.9), 2));
  (void)v;
}

TEST_CASE("linearize: rejections a requires-expression can see", "[transform][linearize][rejection]") {
  // Tangents with the primals' structure and precision pick the map's real overload;
  // anything else the poisoned one (static_assert in its body), so that misuse fails with
  // calx's message. Which one a call picks is visible without instantiating either.
  using Lin = decltype(calx::linearize(f, 0.7, -1.3).second);
  STATIC_REQUIRE(call_returns<Lin, double, double, double>);
  STATIC_REQUIRE(std::invocable<const Lin&, double, std::array<double, 1>>);
  STATIC_REQUIRE(!call_returns<Lin, double, double, std::array<double, 1>>);
  STATIC_REQUIRE(!call_returns<Lin, double, std::array<double, 2>, double>);
  // The wrong NUMBER of tangents, and tangents of another precision, must be refused by
  // the poisoned overload too. Checked at run time so that this file compiles either way:
  // as of 0bf523a both are calx bugs (the count makes both overloads' constraints fail to
  // substitute, so the call is "no match for call" without calx's message; a float tangent
  // is silently converted).
  constexpr bool one_tangent_is_poisoned = std::invocable<const Lin&, double> && !call_returns<Lin, double, double>;
  constexpr bool three_tangents_are_poisoned =
      std::invocable<const Lin&, double, double, double> && !call_returns<Lin, double, double, double, double>;
  constexpr bool float_tangents_are_refused = !call_returns<Lin, double, float, float>;
  CHECK(one_tangent_is_poisoned);
  CHECK(three_tangents_are_poisoned);
  CHECK(float_tangents_are_refused);
}

}  // namespace
