/// @file tests/ops.decomposed.2.cpp
/// @brief tests/_include/ops_decomposed_cases.hpp, part 3 of 6 (cases 2, 3, 4): a TU of its own
/// for the compile budget (bench/compile/budget.txt).
#define CALX_TEST_PART 1
#define CALX_TEST_REALS float, double
#include <_include/ops_decomposed_cases.hpp>
