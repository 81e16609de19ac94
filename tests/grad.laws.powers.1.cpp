/// @file tests/grad.laws.powers.1.cpp
/// @brief The differentiation laws (tests/_include/laws.hpp) for the primitives of
/// calx/ops/powers.hpp, the second part of the rows (log10, cbrt, square, reciprocal), in float
/// and double: jvp and vjp against finite differences, the adjoint identity, jacfwd == jacrev,
/// the Hessian compositions, JAX's check_grads to order 2 (fwd-of-fwd, fwd-of-rev, rev-of-fwd,
/// rev-of-rev), linearize and pullbacks. The first part: grad.laws.powers.0.cpp (a TU of its
/// own for the compile budget).

#include <_include/laws.hpp>

#include <calx/calx.hpp>

#include <catch2/catch.hpp>

namespace laws = calx_test::laws;

TEMPLATE_TEST_CASE("differentiation laws: powers ops (part 2 of 2)", "[transform][grad][laws][powers]", float, double) {
  laws::for_each_row<laws::family::powers, 1, 2>([](const auto& row) {
    INFO("op " << row.name);
    laws::all_laws<TestType>(row);
  });
}
