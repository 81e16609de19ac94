/// @file tests/grad.laws.exponential.cpp
/// @brief The differentiation laws (tests/_include/laws.hpp) for the primitives of
/// calx/ops/exponential.hpp, in double: jvp and vjp against finite differences, the
/// adjoint identity, jacfwd == jacrev, the Hessian compositions, JAX's check_grads to
/// order 2 (fwd-of-fwd, fwd-of-rev, rev-of-fwd, rev-of-rev), linearize and pullbacks. The
/// same in float: grad.laws.exponential.float.cpp (a TU of its own for the compile budget).

#include <_include/laws.hpp>

#include <calx/calx.hpp>

#include <catch2/catch.hpp>

namespace laws = calx_test::laws;

TEST_CASE("differentiation laws: exponential ops - double", "[transform][grad][laws][exponential]") {
  laws::for_each_row<laws::family::exponential>([](const auto& row) {
    INFO("op " << row.name);
    laws::all_laws<double>(row);
  });
}
