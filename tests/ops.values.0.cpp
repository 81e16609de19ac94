/// @file tests/ops.values.0.cpp
/// @brief tests/_include/ops_values_cases.hpp, part 1 of 2 (float and the cases that are not per precision): a TU of
/// its own for the compile budget (bench/compile/budget.txt).
#define CALX_TEST_PART 0
#define CALX_TEST_REALS float
#include <_include/ops_values_cases.hpp>
