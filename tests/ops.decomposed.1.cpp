/// @file tests/ops.decomposed.1.cpp
/// @brief tests/_include/ops_decomposed_cases.hpp, part 2 of 6 (case 1, double, the first half
/// of the rows): a TU of its own for the compile budget (bench/compile/budget.txt).
#define CALX_TEST_PART 0
#define CALX_TEST_ROWS 0
#define CALX_TEST_REALS double
#include <_include/ops_decomposed_cases.hpp>
