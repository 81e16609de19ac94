/// @file tests/tensor.laws.hessian.1.cpp
/// @brief The Hessian of the ops of the table is symmetric and differentiates the gradient: part 2 of 8 of the tensor op table
/// (tests/_include/tensor_laws.hpp).

#include <_include/tensor_laws.hpp>

#include <catch2/catch.hpp>

TEST_CASE("the Hessian of the ops of the table is symmetric and differentiates the gradient (part 2 of 8)", "[tensor][laws]") {
  calx_test::for_table_part<1, 8>([](auto k) { calx_test::laws::check_hessian<decltype(k)::value>(); });
}
