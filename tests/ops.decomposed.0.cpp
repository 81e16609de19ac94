/// @file tests/ops.decomposed.0.cpp
/// @brief tests/_include/ops_decomposed_cases.hpp, part 1 of 6 (case 1, float, the first half
/// of the rows): a TU of its own for the compile budget (bench/compile/budget.txt).
#define CALX_TEST_PART 0
#define CALX_TEST_ROWS 0
#define CALX_TEST_REALS float
#include <_include/ops_decomposed_cases.hpp>
