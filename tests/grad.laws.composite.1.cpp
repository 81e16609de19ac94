/// @file tests/grad.laws.composite.1.cpp
/// @brief The differentiation laws (tests/_include/laws.hpp) on composite functions, in
/// float and double, part 2 of 2: functions with vector outputs (a std::tuple and a
/// std::array), whose pullbacks take structured cotangents: JAX's check_grads to order 2,
/// jacfwd == jacrev, linearize and pullbacks. The scalar function: grad.laws.composite.0.cpp.

#include <_include/laws.hpp>

#include <calx/calx.hpp>

#include <catch2/catch.hpp>

#include <array>
#include <tuple>

namespace {

namespace laws = calx_test::laws;

constexpr auto polar = [](auto r, auto th) { return std::tuple{r * calx::cos(th), r * calx::sin(th)}; };
// Three arguments, three outputs, shared subexpressions.
constexpr auto mixed = [](auto x, auto y, auto z) {
  auto s = calx::sin(x * y);
  return std::array{s * z, calx::exp(s) - y * z, calx::tanh(x + z) * s};
};
using polar_t = decltype(polar);
using mixed_t = decltype(mixed);

TEMPLATE_TEST_CASE("differentiation laws: composite functions (part 2 of 2, vector outputs)", "[transform][grad][laws][composition]", float,
                   double) {
  laws::random rng(20241011);
  for (int i = 0; i < laws::points_per_law; ++i) {
    const std::array<TestType, 2> p{TestType(rng.uniform(0.5, 2.0)), TestType(rng.uniform(-3.0, 3.0))};
    laws::check_grads<2, TestType, polar_t, polar_t>("polar", p, rng);
    laws::check_jacobians<TestType, polar_t>("polar", p);
    laws::check_linear<TestType, polar_t>("polar", p, rng);

    const std::array<TestType, 3> m{TestType(rng.uniform(-1, 1)), TestType(rng.uniform(-1, 1)),
                                    TestType(rng.uniform(-1, 1))};
    laws::check_grads<2, TestType, mixed_t, mixed_t>("mixed", m, rng);
    laws::check_jacobians<TestType, mixed_t>("mixed", m);
    laws::check_linear<TestType, mixed_t>("mixed", m, rng);
  }
}

}  // namespace
