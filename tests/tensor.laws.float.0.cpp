/// @file tests/tensor.laws.float.0.cpp
/// @brief Float gradients of the ops of the table agree with double ones: part 1 of 2 of the tensor op table
/// (tests/_include/tensor_laws.hpp).

#include <_include/tensor_laws.hpp>

#include <catch2/catch.hpp>

TEST_CASE("float gradients of the ops of the table agree with double ones (part 1 of 2)", "[tensor][laws]") {
  calx_test::for_table_part<0, 2>([](auto k) { calx_test::laws::check_float_against_double<decltype(k)::value>(); });
}
