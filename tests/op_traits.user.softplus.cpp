/// @file tests/op_traits.user.softplus.cpp
/// @brief The user op softplus (a decomposition only) under the transform matrix
/// (tests/_include/transform_matrix.hpp) in double: every transform agrees with the same
/// function written with built-in ops. One op and one precision per translation unit, for
/// the compile-time budget (docs/testing.md); tests/op_traits.user.cpp has the rest.

#include <_include/transform_matrix.hpp>
#include <_include/user_ops.hpp>

#include <calx/calx.hpp>

#include <catch2/catch.hpp>

#include <type_traits>

TEST_CASE("user op softplus under the transform matrix (double)", "[op_traits][user][matrix]") {
  using f = std::remove_const_t<decltype(user::f_softplus)>;
  using r = std::remove_const_t<decltype(user::r_softplus)>;
  calx_test::matrix::run<double, f, r>("softplus");
}
