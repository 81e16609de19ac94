/// @file tests/grad.2.cpp
/// @brief tests/_include/grad_cases.hpp, part 3 of 3 (case 15: the size of gradient programs of n statements, whose
/// second derivatives reach ~1500 nodes): a TU of its own for the compile budget (bench/compile/budget.txt).
#define CALX_TEST_PART 2
#include <_include/grad_cases.hpp>
