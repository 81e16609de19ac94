/// @file tests/loop_tensors.1.cpp
/// @brief tests/_include/loop_tensors_cases.hpp, part 2 of 7 (case 2, to first order): a TU of its own
/// for the compile budget (bench/compile/budget.txt).
#define CALX_TEST_PART 1
#define CALX_TEST_REALS float, double
#include <_include/loop_tensors_cases.hpp>
