/// @file tests/fori_loop.4.cpp
/// @brief tests/_include/fori_loop_cases.hpp, part 5 of 6 (cases 5, 6, 7, float): a TU of its own
/// for the compile budget (bench/compile/budget.txt).
#define CALX_TEST_PART 2
#define CALX_TEST_REALS float
#include <_include/fori_loop_cases.hpp>
