/// @file tests/custom_jvp.matrix.cpp
/// @brief calx::custom_jvp under the transform matrix (tests/_include/transform_matrix.hpp):
/// every transform of log1pexp (a custom_jvp) agrees with the same function written in
/// built-ins, f32 and f64. A translation unit of its own for the compile-time budget
/// (docs/testing.md); the rest of calx::custom_jvp's tests are in tests/custom_jvp.cpp.

#include <_include/transform_matrix.hpp>
#include <_include/user_ops.hpp>

#include <calx/calx.hpp>

#include <catch2/catch.hpp>

TEMPLATE_TEST_CASE("custom_jvp under the transform matrix", "[custom_jvp][matrix]", float, double) {
  using namespace calx_test::matrix;
  run<TestType>(user::f_log1pexp, user::r_log1pexp, "log1pexp");
}
