/// @file tests/hessian.cpp
/// @brief `calx::hessian(f, options...)`: the layout (one argnum: a value; several: a
/// std::tuple of std::tuples, H[i][j]; a std::array argument: an array of arrays),
/// closed forms (a polynomial, Rosenbrock), symmetry, has_aux, and Hessians of functions
/// that are themselves built from grad. For every primitive, the Hessian is checked
/// against the other compositions of jacfwd and jacrev in grad.laws.*.cpp.

#include <_include/float_compare.hpp>
#include <_include/test_functions.hpp>

#include <calx/calx.hpp>

#include <catch2/catch.hpp>

#include <array>
#include <cmath>
#include <cstddef>
#include <tuple>
#include <type_traits>
#include <utility>

namespace {

using calx_test::rosenbrock;

using calx_test::within_ulps;

/// |got - want| <= rel * (1 + |want|): the same closed form evaluated in another order.
/// 1e-13 relative (~450 ulp) covers the reordering and nothing a wrong rule would give.
bool near(double got, double want, double rel = 1e-13) { return std::abs(got - want) <= rel * (1 + std::abs(want)); }

constexpr auto poly = [](auto x, auto y) { return x * x * y * y * y + calx::sin(x * y); };

TEST_CASE("hessian: one argnum gives a value, several a tuple of tuples", "[transform][hessian]") {
  const double x = 0.7, y = -1.2;
  const double s = std::sin(x * y), c = std::cos(x * y);
  const double hxx = 2 * y * y * y - y * y * s;
  const double hxy = 6 * x * y * y + c - x * y * s;
  const double hyy = 6 * x * x * y - x * x * s;
  CHECK(near(calx::hessian(poly)(x, y), hxx));
  STATIC_REQUIRE(std::is_same_v<decltype(calx::hessian(poly)(x, y)), double>);
  CHECK(near(calx::hessian(poly, calx::argnums<1>)(x, y), hyy));

  const auto h = calx::hessian(poly, calx::argnums<0, 1>)(x, y);
  using H = std::tuple<std::tuple<double, double>, std::tuple<double, double>>;
  STATIC_REQUIRE(std::is_same_v<decltype(h), const H>);
  CHECK(near(std::get<0>(std::get<0>(h)), hxx));
  CHECK(near(std::get<1>(std::get<0>(h)), hxy));
  CHECK(near(std::get<0>(std::get<1>(h)), hxy));
  CHECK(near(std::get<1>(std::get<1>(h)), hyy));
  // Symmetric up to the order of summation (the two mixed partials come from different
  // passes).
  CHECK(within_ulps(std::get<1>(std::get<0>(h)), std::get<0>(std::get<1>(h)), 4));
  // Reversed argnums: H[i][j] in argnums' order.
  const auto hr = calx::hessian(poly, calx::argnums<1, 0>)(x, y);
  CHECK(std::get<0>(std::get<0>(hr)) == std::get<1>(std::get<1>(h)));
  CHECK(std::get<1>(std::get<1>(hr)) == std::get<0>(std::get<0>(h)));
  // By definition, JAX's: jacfwd(jacrev(f)).
  STATIC_REQUIRE(std::is_same_v<decltype(calx::hessian(poly, calx::argnums<0, 1>)),
                                decltype(calx::jacfwd(calx::jacrev(poly, calx::argnums<0, 1>), calx::argnums<0, 1>))>);
  // float
  STATIC_REQUIRE(std::is_same_v<decltype(calx::hessian(poly)(0.7f, -1.2f)), float>);
  CHECK(std::abs(calx::hessian(poly)(0.7f, -1.2f) - hxx) <= 1e-5 * (1 + std::abs(hxx)));  // ~20 float ulp
}


TEST_CASE("hessian: Rosenbrock in 4 dimensions, an array of arrays", "[transform][hessian][rosenbrock]") {
  const std::array<double, 4> v{-1.2, 1.0, 0.5, 2.0};
  const auto h = calx::hessian(rosenbrock<4>)(v);
  STATIC_REQUIRE(std::is_same_v<decltype(h), const std::array<std::array<double, 4>, 4>>);
  for (std::size_t i = 0; i < 4; ++i)
    for (std::size_t j = 0; j < 4; ++j) {
      double want = 0;
      if (i == j) {
        if (i + 1 < 4) want += 2 - 400 * (v[i + 1] - v[i] * v[i]) + 800 * v[i] * v[i];
        if (i > 0) want += 200;
      } else if (j == i + 1) {
        want = -400 * v[i];
      } else if (i == j + 1) {
        want = -400 * v[j];
      }
      INFO("H[" << i << "][" << j << "]");
      CHECK(near(h[i][j], want));
      CHECK(h[i][j] == h[i][j]);  // no NaN
    }
  // At the minimum (1, 1, 1, 1) the Hessian is positive definite; its diagonal is known.
  const auto h1 = calx::hessian(rosenbrock<4>)(std::array{1.0, 1.0, 1.0, 1.0});
  CHECK(h1[0][0] == 802.0);
  CHECK(h1[1][1] == 1002.0);
  CHECK(h1[3][3] == 200.0);
}

TEST_CASE("hessian with has_aux: (hessian, aux)", "[transform][hessian][has_aux]") {
  constexpr auto f = [](auto x, auto y) { return std::pair{x * x * x * y, std::tuple{x + y, x * y}}; };
  const auto [h, aux] = calx::hessian(f, calx::has_aux, calx::argnums<0, 1>)(2.0, 3.0);
  CHECK(h == std::tuple{std::tuple{36.0, 12.0}, std::tuple{12.0, 0.0}});
  CHECK(aux == std::tuple{5.0, 6.0});
  const auto [h0, aux0] = calx::hessian(f, calx::has_aux)(2.0, 3.0);
  CHECK(h0 == 36.0);
  CHECK(aux0 == aux);
}

// g(x, y) = y · ∂f/∂x with f = x³ y²: g = 3 x² y³.
constexpr auto cubic_square = [](auto x, auto y) { return x * x * x * y * y; };
constexpr auto y_times_dfdx = [](auto x, auto y) { return y * calx::grad(cubic_square)(x, y); };
// q is quadratic (∇³q = 0), H_q = [[2, 3], [3, 10]].
constexpr auto q = [](auto x, auto y) { return x * x + 3.0 * x * y + 5.0 * y * y; };
constexpr auto half_grad_norm = [](auto x, auto y) {
  const auto [gx, gy] = calx::grad(q, calx::argnums<0, 1>)(x, y);
  return 0.5 * (gx * gx + gy * gy);
};

TEST_CASE("hessian of functions built from grad", "[transform][hessian][composition]") {
  // H(g) = [[6 y³, 18 x y²], [18 x y², 18 x² y]].
  const double x = 1.5, y = -0.5;
  const auto h = calx::hessian(y_times_dfdx, calx::argnums<0, 1>)(x, y);
  CHECK(near(std::get<0>(std::get<0>(h)), 6 * y * y * y));
  CHECK(near(std::get<1>(std::get<0>(h)), 18 * x * y * y));
  CHECK(near(std::get<0>(std::get<1>(h)), 18 * x * y * y));
  CHECK(near(std::get<1>(std::get<1>(h)), 18 * x * x * y));
  // The Hessian of h = ½ ‖∇q‖² is H_q² + Σ_k ∂_k q · ∂_k H_q = H_q² = [[13, 36], [36, 109]]
  // everywhere, and every operation on these small integers is exact.
  const auto hh = calx::hessian(half_grad_norm, calx::argnums<0, 1>)(0.3, -2.0);
  CHECK(hh == std::tuple{std::tuple{13.0, 36.0}, std::tuple{36.0, 109.0}});
  // The Hessian of a gradient is the third derivative: d³(x⁴)/dx³ = 24 x.
  CHECK(calx::hessian(calx::grad([](auto t) { return t * t * t * t; }))(0.5) == 12.0);
}

}  // namespace
