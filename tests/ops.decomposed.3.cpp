/// @file tests/ops.decomposed.3.cpp
/// @brief tests/_include/ops_decomposed_cases.hpp, part 4 of 6 (case 5): a TU of its own
/// for the compile budget (bench/compile/budget.txt).
#define CALX_TEST_PART 2
#define CALX_TEST_REALS float, double
#include <_include/ops_decomposed_cases.hpp>
