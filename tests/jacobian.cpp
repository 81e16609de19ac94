/// @file tests/jacobian.cpp
/// @brief `calx::jacfwd` and `calx::jacrev` (calx/jacfwd.hpp, calx/jacrev.hpp): the layout
/// of the result (shaped like grad's for scalar functions; output ⊗ inputs in general),
/// known Jacobians, forward == reverse, argnums and has_aux. jacfwd == jacrev for every
/// primitive and for the second-order maps is in grad.laws.*.cpp.

#include <_include/float_compare.hpp>

#include <calx/calx.hpp>

#include <catch2/catch.hpp>

#include <array>
#include <cmath>
#include <cstddef>
#include <tuple>
#include <type_traits>
#include <utility>

namespace {

using calx_test::within_ulps;

constexpr auto polar = [](auto r, auto th) { return std::tuple{r * calx::cos(th), r * calx::sin(th)}; };

TEST_CASE("jacfwd, jacrev: scalar functions give grad's result", "[transform][jacfwd][jacrev]") {
  constexpr auto f = [](auto x, auto y) { return x * x * calx::exp(y); };
  CHECK(calx::jacfwd(f)(1.5, 0.5) == calx::grad(f)(1.5, 0.5));
  CHECK(calx::jacrev(f)(1.5, 0.5) == calx::grad(f)(1.5, 0.5));
  STATIC_REQUIRE(std::is_same_v<decltype(calx::jacfwd(f)(1.5, 0.5)), double>);
  STATIC_REQUIRE(std::is_same_v<decltype(calx::jacfwd(f, calx::argnums<0, 1>)(1.5, 0.5)), std::tuple<double, double>>);
  CHECK(calx::jacrev(f, calx::argnums<0, 1>)(1.5, 0.5) == calx::grad(f, calx::argnums<0, 1>)(1.5, 0.5));
  const auto [fx, fy] = calx::jacfwd(f, calx::argnums<0, 1>)(1.5, 0.5);
  CHECK(within_ulps(fx, 3.0 * std::exp(0.5), 2));
  CHECK(within_ulps(fy, 2.25 * std::exp(0.5), 2));
  // std::array argument: a std::array gradient.
  constexpr auto norm2 = [](const auto& v) { return v[0] * v[0] + v[1] * v[1] + v[2] * v[2]; };
  const std::array<double, 3> v{1.0, -2.0, 0.5};
  CHECK(calx::jacfwd(norm2)(v) == std::array{2.0, -4.0, 1.0});
  CHECK(calx::jacrev(norm2)(v) == std::array{2.0, -4.0, 1.0});
  STATIC_REQUIRE(std::is_same_v<decltype(calx::jacrev(norm2)(v)), std::array<double, 3>>);
}

TEST_CASE("jacfwd, jacrev: the polar-to-Cartesian Jacobian, output-major", "[transform][jacfwd][jacrev]") {
  const double r = 2.0, th = 0.3;
  const auto jf = calx::jacfwd(polar, calx::argnums<0, 1>)(r, th);
  const auto jr = calx::jacrev(polar, calx::argnums<0, 1>)(r, th);
  using J = std::tuple<std::tuple<double, double>, std::tuple<double, double>>;
  STATIC_REQUIRE(std::is_same_v<decltype(jf), const J>);
  STATIC_REQUIRE(std::is_same_v<decltype(jr), const J>);
  // [[cos θ, -r sin θ], [sin θ, r cos θ]]: one product or sign flip each, exact.
  const J want{{std::cos(th), -(r * std::sin(th))}, {std::sin(th), r * std::cos(th)}};
  CHECK(jf == want);
  CHECK(jr == want);
  // One argnum: one column per output.
  CHECK(calx::jacfwd(polar, calx::argnums<1>)(r, th) == std::tuple{-(r * std::sin(th)), r * std::cos(th)});
  CHECK(calx::jacrev(polar, calx::argnums<-1>)(r, th) == std::tuple{-(r * std::sin(th)), r * std::cos(th)});
  // Reversed argnums: the columns swap.
  CHECK(calx::jacrev(polar, calx::argnums<1, 0>)(r, th) ==
        J{{-(r * std::sin(th)), std::cos(th)}, {r * std::cos(th), std::sin(th)}});
}

TEST_CASE("jacfwd, jacrev: array in, array out", "[transform][jacfwd][jacrev][tree]") {
  // f(v) = (v0 v1, v1 + v2, v2²): J = [[v1, v0, 0], [0, 1, 1], [0, 0, 2 v2]].
  constexpr auto f = [](const auto& v) { return std::array{v[0] * v[1], v[1] + v[2], v[2] * v[2]}; };
  const std::array<double, 3> v{2.0, 3.0, 5.0};
  using J = std::array<std::array<double, 3>, 3>;
  const J want{{{3.0, 2.0, 0.0}, {0.0, 1.0, 1.0}, {0.0, 0.0, 10.0}}};
  STATIC_REQUIRE(std::is_same_v<decltype(calx::jacfwd(f)(v)), J>);
  CHECK(calx::jacfwd(f)(v) == want);
  CHECK(calx::jacrev(f)(v) == want);
  // Cross product with respect to both arguments: J_a = -[b]x, J_b = [a]x.
  constexpr auto cross = [](const auto& a, const auto& b) {
    return std::array{a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
  };
  const std::array<double, 3> a{1.0, 2.0, 3.0}, b{-1.0, 0.5, 4.0};
  const auto jf = calx::jacfwd(cross, calx::argnums<0, 1>)(a, b);
  const auto jr = calx::jacrev(cross, calx::argnums<0, 1>)(a, b);
  CHECK(jf == jr);
  const auto& [ja, jb] = jf[0];  // row 0: d(a1 b2 - a2 b1)
  CHECK(ja == std::array{0.0, b[2], -b[1]});
  CHECK(jb == std::array{0.0, -a[2], a[1]});
  // float
  const auto jff = calx::jacfwd(f)(std::array<float, 3>{2.0f, 3.0f, 5.0f});
  STATIC_REQUIRE(std::is_same_v<decltype(jff), const std::array<std::array<float, 3>, 3>>);
  CHECK(jff[2][2] == 10.0f);
}

TEST_CASE("jacfwd, jacrev with has_aux: (jacobian, aux)", "[transform][jacfwd][jacrev][has_aux]") {
  constexpr auto f = [](auto r, auto th) { return std::pair{polar(r, th), r * th}; };
  const auto [jf, auxf] = calx::jacfwd(f, calx::has_aux, calx::argnums<0, 1>)(2.0, 0.3);
  const auto [jr, auxr] = calx::jacrev(f, calx::argnums<0, 1>, calx::has_aux)(2.0, 0.3);
  CHECK(jf == calx::jacfwd(polar, calx::argnums<0, 1>)(2.0, 0.3));
  CHECK(jr == jf);
  CHECK(auxf == 2.0 * 0.3);
  CHECK(auxr == auxf);
}

TEST_CASE("jacfwd == jacrev on a function with mixed sharing", "[transform][jacfwd][jacrev]") {
  // Outputs share subexpressions; forward (one pass per input) and reverse (one pass per
  // output) must agree to a few ulp (the same products, summed in other orders).
  constexpr auto f = [](auto x, auto y, auto z) {
    auto s = calx::sin(x * y);
    return std::tuple{s * z, calx::exp(s) - y * z, calx::tanh(x + z) * s};
  };
  const auto jf = calx::jacfwd(f, calx::argnums<0, 1, 2>)(0.3, -1.1, 0.8);
  const auto jr = calx::jacrev(f, calx::argnums<0, 1, 2>)(0.3, -1.1, 0.8);
  const auto rows_f = std::apply([](const auto&... r) { return std::array{r...}; }, jf);
  const auto rows_r = std::apply([](const auto&... r) { return std::array{r...}; }, jr);
  for (std::size_t o = 0; o < 3; ++o) {
    const auto a = std::apply([](auto... e) { return std::array{e...}; }, rows_f[o]);
    const auto b = std::apply([](auto... e) { return std::array{e...}; }, rows_r[o]);
    for (std::size_t k = 0; k < 3; ++k) CHECK(within_ulps(a[k], b[k], 8));
  }
}

}  // namespace
