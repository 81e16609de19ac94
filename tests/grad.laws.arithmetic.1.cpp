/// @file tests/grad.laws.arithmetic.1.cpp
/// @brief The differentiation laws (tests/_include/laws.hpp) for the primitives of
/// calx/ops/arithmetic.hpp, the second part of the rows (div, neg, stop_gradient), in float and
/// double: jvp and vjp against finite differences, the adjoint identity, jacfwd == jacrev, the
/// Hessian compositions, JAX's check_grads to order 2 (fwd-of-fwd, fwd-of-rev, rev-of-fwd, rev-of-
/// rev), linearize and pullbacks. The other part: grad.laws.arithmetic.0.cpp (a TU of its own for
/// the compile budget).

#include <_include/laws.hpp>

#include <calx/calx.hpp>

#include <catch2/catch.hpp>

namespace laws = calx_test::laws;

TEMPLATE_TEST_CASE("differentiation laws: arithmetic ops (part 2 of 2)", "[transform][grad][laws][arithmetic]", float, double) {
  laws::for_each_row<laws::family::arithmetic, 1, 2>([](const auto& row) {
    INFO("op " << row.name);
    laws::all_laws<TestType>(row);
  });
}
