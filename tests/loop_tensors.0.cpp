/// @file tests/loop_tensors.0.cpp
/// @brief tests/_include/loop_tensors_cases.hpp, part 1 of 7 (case 1): a TU of its own
/// for the compile budget (bench/compile/budget.txt).
#define CALX_TEST_PART 0
#define CALX_TEST_REALS float, double
#include <_include/loop_tensors_cases.hpp>
