/// @file tests/tensor.laws.hessian.7.cpp
/// @brief The Hessian of the ops of the table is symmetric and differentiates the gradient: part 15
/// of 16 of the tensor op table (tests/_include/tensor_laws.hpp). The table's last eighth is two
/// TUs, parts 15 and 16 of 16 (this and tensor.laws.hessian.8.cpp), for the compile budget: the
/// Hessian of its last function (calx::prod over both axes) alone takes 30 s.

#include <_include/tensor_laws.hpp>

#include <catch2/catch.hpp>

TEST_CASE("the Hessian of the ops of the table is symmetric and differentiates the gradient (part 15 of 16)", "[tensor][laws]") {
  calx_test::for_table_part<14, 16>([](auto k) { calx_test::laws::check_hessian<decltype(k)::value>(); });
}
