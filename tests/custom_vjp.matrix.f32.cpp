/// @file tests/custom_vjp.matrix.f32.cpp
/// @brief calx::custom_vjp under the transform matrix (tests/_include/transform_matrix.hpp): every
/// transform of my_mul (a custom_vjp whose closure is the true vjp) agrees with the same function
/// written in built-ins, in float (double: tests/custom_vjp.matrix.cpp). One precision per
/// translation unit, for the compile-time budget (docs/testing.md); the rest of calx::custom_vjp's
/// tests are in tests/custom_vjp.cpp.

#include <_include/transform_matrix.hpp>
#include <_include/user_ops.hpp>

#include <calx/calx.hpp>

#include <catch2/catch.hpp>

TEST_CASE("custom_vjp under the transform matrix (float)", "[custom_vjp][matrix]") {
  calx_test::matrix::run<float>(user::f_my_mul, user::r_my_mul, "my_mul");
}
