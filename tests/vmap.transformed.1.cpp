/// @file tests/vmap.transformed.1.cpp
/// @brief tests/_include/vmap_transformed_cases.hpp, part 2 of 2 (cases 4, 5, 6): a TU of its own
/// for the compile budget (bench/compile/budget.txt).
#define CALX_TEST_PART 1
#include <_include/vmap_transformed_cases.hpp>
