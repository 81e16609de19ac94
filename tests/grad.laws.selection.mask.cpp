/// @file tests/grad.laws.selection.mask.cpp
/// @brief The differentiation laws (tests/_include/laws.hpp) for the logical ops and, or
/// and not of calx/ops/logical.hpp, each in a combined mask as where's predicate, in float
/// and double: jvp and vjp against finite differences, the adjoint identity, jacfwd ==
/// jacrev, the Hessian compositions, JAX's check_grads to order 2, linearize and pullbacks.
/// (Their values, under vmap, on tensors and in the IR: tests/ops.logical.cpp.)

#include <_include/laws.hpp>

#include <calx/calx.hpp>

#include <catch2/catch.hpp>

namespace laws = calx_test::laws;

TEMPLATE_TEST_CASE("differentiation laws: combined masks as where's predicate", "[transform][grad][laws][selection][where][mask]", float, double) {
  laws::for_each_row<laws::family::mask>([](const auto& row) {
    INFO("op " << row.name);
    laws::all_laws<TestType>(row);
  });
}
