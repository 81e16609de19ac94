/// @file tests/tensor.laws.vmap.2.cpp
/// @brief Vmap and vmap(grad) of the ops of the table equal loops over samples: part 3 of 3 of the tensor op table
/// (tests/_include/tensor_laws.hpp).

#include <_include/tensor_laws.hpp>

#include <catch2/catch.hpp>

TEST_CASE("vmap and vmap(grad) of the ops of the table equal loops over samples (part 3 of 3)", "[tensor][laws][vmap]") {
  calx_test::for_table_part<2, 3>([](auto k) { calx_test::laws::check_vmap<decltype(k)::value>(); });
}
