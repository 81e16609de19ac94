/// @file tests/custom_jvp.matrix.cpp
/// @brief calx::custom_jvp under the transform matrix (tests/_include/transform_matrix.hpp): every
/// transform of log1pexp (a custom_jvp) agrees with the same function written in built-ins, in
/// double (float: tests/custom_jvp.matrix.f32.cpp). One precision per translation unit, for the
/// compile-time budget (docs/testing.md); the rest of calx::custom_jvp's tests are in
/// tests/custom_jvp.cpp.

#include <_include/transform_matrix.hpp>
#include <_include/user_ops.hpp>

#include <calx/calx.hpp>

#include <catch2/catch.hpp>

TEST_CASE("custom_jvp under the transform matrix (double)", "[custom_jvp][matrix]") {
  calx_test::matrix::run<double>(user::f_log1pexp, user::r_log1pexp, "log1pexp");
}
