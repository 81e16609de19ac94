/// @file tests/ops.decomposed.4.cpp
/// @brief tests/_include/ops_decomposed_cases.hpp, part 5 of 6 (case 1, float, the second half
/// of the rows): a TU of its own for the compile budget (bench/compile/budget.txt).
#define CALX_TEST_PART 0
#define CALX_TEST_ROWS 1
#define CALX_TEST_REALS float
#include <_include/ops_decomposed_cases.hpp>
