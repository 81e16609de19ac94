/// @file tests/grad.0.cpp
/// @brief tests/_include/grad_cases.hpp, part 1 of 3 (cases 1, 2, 3, 4, 5, 6, 7, 8, 9): a TU of its own
/// for the compile budget (bench/compile/budget.txt).
#define CALX_TEST_PART 0
#include <_include/grad_cases.hpp>
