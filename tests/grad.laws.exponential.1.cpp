/// @file tests/grad.laws.exponential.1.cpp
/// @brief The differentiation laws (tests/_include/laws.hpp) for the primitives of
/// calx/ops/exponential.hpp, the second part of the rows (log1p, expm1, sqrt, rsqrt), in
/// float and double: jvp and vjp against finite differences, the adjoint identity, jacfwd ==
/// jacrev, the Hessian compositions, JAX's check_grads to order 2 (fwd-of-fwd, fwd-of-rev,
/// rev-of-fwd, rev-of-rev), linearize and pullbacks. The first part:
/// grad.laws.exponential.0.cpp (a TU of its own for the compile budget).

#include <_include/laws.hpp>

#include <calx/calx.hpp>

#include <catch2/catch.hpp>

namespace laws = calx_test::laws;

TEMPLATE_TEST_CASE("differentiation laws: exponential ops (part 2 of 2)", "[transform][grad][laws][exponential]", float, double) {
  laws::for_each_row<laws::family::exponential, 1, 2>([](const auto& row) {
    INFO("op " << row.name);
    laws::all_laws<TestType>(row);
  });
}
