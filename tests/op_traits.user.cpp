/// @file tests/op_traits.user.cpp
/// @brief User-defined ops (a specialisation of calx::op_traits in the user's own code):
/// softplus (a decomposition only), logaddexp (its own kernel and vjp, no SIMD kernel or jvp
/// rule), softabs (a user op whose decomposition calls a user op). Each is one IR node; each
/// rule is the op's own, else the transform of its decomposition. Each op under the
/// transform matrix is a translation unit of its own, for the compile-time budget
/// (docs/testing.md): tests/op_traits.user.<op>.cpp.

#include <_include/ir_inspect.hpp>
#include <_include/user_ops.hpp>

#include <calx/calx.hpp>

#include <catch2/catch.hpp>

#include <cmath>
#include <string>

namespace {

using calx::detail::batch_kernel;
using calx::detail::describe;
using calx::detail::rule_source;

}  // namespace

TEST_CASE("a user op's rules resolve to its own, else its decomposition's, else missing", "[op_traits][user]") {
  STATIC_REQUIRE(calx::primitive<user::softplus_op>);
  STATIC_REQUIRE(calx::has_decomposition<user::softplus_op>);
  STATIC_REQUIRE(!calx::has_vjp_rule<user::softplus_op>);
  STATIC_REQUIRE(describe<user::softplus_op>().jvp_from == rule_source::decomposition);
  STATIC_REQUIRE(describe<user::softplus_op>().vjp_from == rule_source::decomposition);
  STATIC_REQUIRE(describe<user::softplus_op>().batch_from == batch_kernel::decomposition);
  STATIC_REQUIRE(describe<user::logaddexp_op>().jvp_from == rule_source::decomposition);
  STATIC_REQUIRE(describe<user::logaddexp_op>().vjp_from == rule_source::own);
  STATIC_REQUIRE(describe<user::logaddexp_op>().batch_from == batch_kernel::decomposition);
  STATIC_REQUIRE(describe<user::logaddexp_op>().extra().kernel_f64 != nullptr);
  STATIC_REQUIRE(describe<user::softplus_op>().extra().kernel_f64 == nullptr);
  // an op's kernel that calls out of line says so; code generation orders its calls
  STATIC_REQUIRE(describe<user::logaddexp_op>().calls_out_of_line);
  STATIC_REQUIRE(!describe<user::softplus_op>().calls_out_of_line);
  STATIC_REQUIRE(describe<calx::sin_op>().calls_out_of_line);
  STATIC_REQUIRE(!describe<calx::exp_op>().calls_out_of_line);
}

TEST_CASE("a user op is one IR node; on numbers it runs its kernel, else its decomposition", "[op_traits][user]") {
  const auto p = calx::trace(user::f_logaddexp, 1.0, 2.0);
  const std::string text = calx::to_string(p);
  CHECK(text.find("logaddexp a b") != std::string::npos);
  CHECK(calx_test::count_named(p.ir, "logaddexp") == 1);
  CHECK(calx_test::count_named(calx::trace(user::f_softabs, 1.0, 2.0).ir, "softabs") == 1);
  CHECK(calx_test::count_named(calx::trace(user::f_softabs, 1.0, 2.0).ir, "softplus") == 0);
  // Plain numbers: logaddexp's kernel (std::fmax ... in the user's code), softplus's
  // decomposition; the compiled program does the same (the kernel through a constant
  // function pointer, a direct call).
  CHECK(user::logaddexp(1.0, 2.0) == 2.0 + std::log1p(std::exp(-1.0)));
  CHECK(user::softplus(0.5) == std::log1p(std::exp(0.5)));
  CHECK(p(0.5, 1.5) == user::f_logaddexp(0.5, 1.5));
  CHECK(calx::trace(user::f_softplus, 1.0f, 1.0f)(0.5f, 2.0f) == user::f_softplus(0.5f, 2.0f));
}

TEST_CASE("which path ran: logaddexp's own vjp in reverse mode, its decomposition in forward mode", "[op_traits][user]") {
  // Reverse mode keeps the logaddexp node (its own vjp reads the result y) and never writes
  // its decomposition (no max, no log1p).
  const auto g = calx::trace(calx::grad(user::f_logaddexp, calx::argnums<0, 1>), 1.0, 2.0);
  CHECK(calx_test::count_named(g.ir, "logaddexp") == 1);
  CHECK(calx_test::count_named(g.ir, "log1p") == 0);
  CHECK(calx_test::count_named(g.ir, "max") == 0);
  // Forward mode has no rule of the op's own: it differentiates the decomposition, which
  // replaces the node.
  const auto j = calx::trace(
      [](auto x, auto y) { return calx::jvp(user::f_logaddexp, std::tuple{x, y}, std::tuple{1.0 + 0.0 * x, 0.0 * y}).second; },
      1.0, 2.0);
  CHECK(calx_test::count_named(j.ir, "logaddexp") == 0);
  CHECK(calx_test::count_named(j.ir, "log1p") >= 1);
  // softplus has no rule at all: grad differentiates log1p(exp(x)).
  const auto s = calx::trace(calx::grad(user::f_softplus, calx::argnums<0, 1>), 1.0, 2.0);
  CHECK(calx_test::count_named(s.ir, "softplus") == 0);
  CHECK(calx_test::count_named(s.ir, "exp") >= 1);
}
