/// @file tests/grad.laws.powers.cpp
/// @brief The differentiation laws (tests/_include/laws.hpp) for the primitives of
/// calx/ops/powers.hpp that have rows (exp2, log2, log10, cbrt), in float and double: jvp
/// and vjp against finite differences, the adjoint identity, jacfwd == jacrev, the Hessian
/// compositions, JAX's check_grads to order 2 (fwd-of-fwd, fwd-of-rev, rev-of-fwd,
/// rev-of-rev), linearize and pullbacks. (A TU of its own, apart from the exponential
/// family's, for the compile budget.)

#include <_include/laws.hpp>

#include <calx/calx.hpp>

#include <catch2/catch.hpp>

namespace laws = calx_test::laws;

TEMPLATE_TEST_CASE("differentiation laws: powers ops", "[transform][grad][laws][powers]", float, double) {
  laws::for_each_row<laws::family::powers>([](const auto& row) {
    INFO("op " << row.name);
    laws::all_laws<TestType>(row);
  });
}
