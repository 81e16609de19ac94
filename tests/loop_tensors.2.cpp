/// @file tests/loop_tensors.2.cpp
/// @brief tests/_include/loop_tensors_cases.hpp, part 3 of 7 (cases 3, 4, float): a TU of its own
/// for the compile budget (bench/compile/budget.txt).
#define CALX_TEST_PART 2
#define CALX_TEST_REALS float
#include <_include/loop_tensors_cases.hpp>
