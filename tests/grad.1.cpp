/// @file tests/grad.1.cpp
/// @brief tests/_include/grad_cases.hpp, part 2 of 3 (cases 10, 11, 12, 13, 14, 16, 17, 18): a TU of its own
/// for the compile budget (bench/compile/budget.txt).
#define CALX_TEST_PART 1
#include <_include/grad_cases.hpp>
