/// @file tests/grad.laws.composite.0.cpp
/// @brief The differentiation laws (tests/_include/laws.hpp) on composite functions, in
/// float and double, part 1 of 2: a scalar function of two arguments (JAX's check_grads to
/// order 2, jacfwd == jacrev, the Hessian compositions, linearize and pullbacks). Functions
/// with vector outputs: grad.laws.composite.1.cpp (a TU of its own for the compile budget).

#include <_include/laws.hpp>

#include <calx/calx.hpp>

#include <catch2/catch.hpp>

#include <array>

namespace {

namespace laws = calx_test::laws;

// Rosenbrock's banana with b = 5 rather than 100: the finite-difference reference of the
// second-order maps has a truncation error ∝ b eps² |t|³, which at b = 100 reaches ~5e-6
// relative (above the double tolerance, through no fault of calx). The canonical b = 100
// is checked against its closed-form gradient and Hessian in grad.cpp and hessian.cpp.
constexpr auto banana = [](auto x, auto y) {
  auto a = 1.0 - x;
  auto b = y - x * x;
  return a * a + 5.0 * b * b;
};
using banana_t = decltype(banana);

TEMPLATE_TEST_CASE("differentiation laws: composite functions (part 1 of 2, a scalar function)", "[transform][grad][laws][composition]", float,
                   double) {
  laws::random rng(20241010);
  for (int i = 0; i < laws::points_per_law; ++i) {
    const std::array<TestType, 2> x{TestType(rng.uniform(-1.5, 1.5)), TestType(rng.uniform(-0.5, 2.0))};
    laws::check_grads<2, TestType, banana_t, banana_t>("banana", x, rng);
    laws::check_jacobians<TestType, banana_t>("banana", x);
    laws::check_hessian<TestType, banana_t>("banana", x, rng);
    laws::check_linear<TestType, banana_t>("banana", x, rng);
  }
}

}  // namespace
