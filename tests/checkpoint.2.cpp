/// @file tests/checkpoint.2.cpp
/// @brief tests/_include/checkpoint_cases.hpp, part 3 of 5 (cases 3, 4, float): a TU of its own
/// for the compile budget (bench/compile/budget.txt).
#define CALX_TEST_PART 1
#define CALX_TEST_REALS float
#include <_include/checkpoint_cases.hpp>
