/// @file tests/tensor.laws.jacobians.2.cpp
/// @brief Jacfwd equals jacrev for the ops of the table: part 3 of 5 of the tensor op table
/// (tests/_include/tensor_laws.hpp).

#include <_include/tensor_laws.hpp>

#include <catch2/catch.hpp>

TEST_CASE("jacfwd equals jacrev for the ops of the table (part 3 of 5)", "[tensor][laws]") {
  calx_test::for_table_part<2, 5>([](auto k) { calx_test::laws::check_jacobians<decltype(k)::value>(); });
}
