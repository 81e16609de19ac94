/// @file tests/op_traits.user.softabs.f32.cpp
/// @brief The user op softabs (a user op whose decomposition calls a user op) under the transform matrix
/// (tests/_include/transform_matrix.hpp) in float: every transform agrees with the same
/// function written with built-in ops. One op and one precision per translation unit, for
/// the compile-time budget (docs/testing.md); tests/op_traits.user.cpp has the rest.

#include <_include/transform_matrix.hpp>
#include <_include/user_ops.hpp>

#include <calx/calx.hpp>

#include <catch2/catch.hpp>

#include <type_traits>

TEST_CASE("user op softabs under the transform matrix (float)", "[op_traits][user][matrix]") {
  using f = std::remove_const_t<decltype(user::f_softabs)>;
  using r = std::remove_const_t<decltype(user::r_softabs)>;
  calx_test::matrix::run<float, f, r>("softabs");
}
