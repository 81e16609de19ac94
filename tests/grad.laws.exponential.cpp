/// @file tests/grad.laws.exponential.cpp
/// @brief The differentiation laws (tests/_include/laws.hpp) for the primitives of
/// calx/ops/exponential.hpp, in float and double: jvp and vjp against finite differences, the
/// adjoint identity, jacfwd == jacrev, the Hessian compositions, JAX's check_grads to
/// order 2 (fwd-of-fwd, fwd-of-rev, rev-of-fwd, rev-of-rev), linearize and pullbacks.

#include <_include/laws.hpp>

#include <calx/calx.hpp>

#include <catch2/catch.hpp>

namespace laws = calx_test::laws;

TEMPLATE_TEST_CASE("differentiation laws: exponential ops", "[transform][grad][laws][exponential]", float, double) {
  laws::for_each_row<laws::family::exponential>([](const auto& row) {
    INFO("op " << row.name);
    laws::all_laws<TestType>(row);
  });
}
