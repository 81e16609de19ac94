/// @file tests/loop_tensors.3.cpp
/// @brief tests/_include/loop_tensors_cases.hpp, part 4 of 7 (cases 3, 4, double): a TU of its own
/// for the compile budget (bench/compile/budget.txt).
#define CALX_TEST_PART 2
#define CALX_TEST_REALS double
#include <_include/loop_tensors_cases.hpp>
