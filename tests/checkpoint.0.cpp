/// @file tests/checkpoint.0.cpp
/// @brief tests/_include/checkpoint_cases.hpp, part 1 of 5 (cases 1, 2, float): a TU of its own
/// for the compile budget (bench/compile/budget.txt).
#define CALX_TEST_PART 0
#define CALX_TEST_REALS float
#include <_include/checkpoint_cases.hpp>
