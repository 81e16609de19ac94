/// @file tests/grad.laws.selection.cpp
/// @brief The differentiation laws (tests/_include/laws.hpp) for abs, sign, min and max
/// (calx/ops/selection.hpp; where is in grad.laws.selection.where.cpp), in float and
/// double: jvp and vjp against finite differences, the adjoint identity, jacfwd == jacrev,
/// the Hessian compositions, JAX's check_grads to order 2 (fwd-of-fwd, fwd-of-rev,
/// rev-of-fwd, rev-of-rev), linearize and pullbacks. Domains keep away from the kinks;
/// the values JAX chose at the kinks are tested in grad.cpp.

#include <_include/laws.hpp>

#include <calx/calx.hpp>

#include <catch2/catch.hpp>

namespace laws = calx_test::laws;

TEMPLATE_TEST_CASE("differentiation laws: selection ops", "[transform][grad][laws][selection]", float, double) {
  laws::for_each_row<laws::family::selection>([](const auto& row) {
    INFO("op " << row.name);
    laws::all_laws<TestType>(row);
  });
}
