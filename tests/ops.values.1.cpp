/// @file tests/ops.values.1.cpp
/// @brief tests/_include/ops_values_cases.hpp, part 2 of 2 (double): a TU of
/// its own for the compile budget (bench/compile/budget.txt).
#define CALX_TEST_PART 1
#define CALX_TEST_REALS double
#include <_include/ops_values_cases.hpp>
