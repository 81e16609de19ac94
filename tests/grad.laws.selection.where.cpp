/// @file tests/grad.laws.selection.where.cpp
/// @brief The differentiation laws (tests/_include/laws.hpp) for where (calx/ops/selection.hpp)
/// with a real predicate and with < and <= (the other comparisons are in
/// grad.laws.selection.comparison.{0,1}.cpp), in float and double:
/// jvp and vjp against finite differences, the adjoint identity, jacfwd == jacrev, the
/// Hessian compositions, JAX's check_grads to order 2 (fwd-of-fwd, fwd-of-rev, rev-of-fwd,
/// rev-of-rev), linearize and pullbacks.

#include <_include/laws.hpp>

#include <calx/calx.hpp>

#include <catch2/catch.hpp>

namespace laws = calx_test::laws;

TEMPLATE_TEST_CASE("differentiation laws: where", "[transform][grad][laws][selection][where]", float, double) {
  laws::for_each_row<laws::family::where>([](const auto& row) {
    INFO("op " << row.name);
    laws::all_laws<TestType>(row);
  });
}
