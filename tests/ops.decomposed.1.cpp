/// @file tests/ops.decomposed.1.cpp
/// @brief tests/_include/ops_decomposed_cases.hpp, part 2 of 4 (case 1, double): a TU of its own
/// for the compile budget (bench/compile/budget.txt).
#define CALX_TEST_PART 0
#define CALX_TEST_REALS double
#include <_include/ops_decomposed_cases.hpp>
