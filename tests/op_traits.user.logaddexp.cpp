/// @file tests/op_traits.user.logaddexp.cpp
/// @brief The user op logaddexp (its own kernel and vjp, no SIMD kernel or jvp rule) under the transform matrix
/// (tests/_include/transform_matrix.hpp) in double, called on numbers (`run_calls`; its
/// runtime batches: op_traits.user.logaddexp.batches.cpp): every transform agrees with the same
/// function written with built-in ops. One op, one precision and one half of
/// the matrix per translation unit (together 45-46 CPU s in CI's build of c2962d0), for
/// the compile-time budget (docs/testing.md); tests/op_traits.user.cpp has the rest.

#include <_include/transform_matrix.hpp>
#include <_include/user_ops.hpp>

#include <calx/calx.hpp>

#include <catch2/catch.hpp>

#include <type_traits>

TEST_CASE("user op logaddexp under the transform matrix (double), calls", "[op_traits][user][matrix]") {
  using f = std::remove_const_t<decltype(user::f_logaddexp)>;
  using r = std::remove_const_t<decltype(user::r_logaddexp)>;
  calx_test::matrix::run_calls<double, f, r>("logaddexp");
}
