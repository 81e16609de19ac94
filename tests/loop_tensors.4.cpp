/// @file tests/loop_tensors.4.cpp
/// @brief tests/_include/loop_tensors_cases.hpp, part 5 of 7 (case 5): a TU of its own
/// for the compile budget (bench/compile/budget.txt).
#define CALX_TEST_PART 3
#define CALX_TEST_REALS float, double
#include <_include/loop_tensors_cases.hpp>
