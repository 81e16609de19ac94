/// @file tests/fori_loop.2.cpp
/// @brief tests/_include/fori_loop_cases.hpp, part 3 of 6 (cases 3, 4, float): a TU of its own
/// for the compile budget (bench/compile/budget.txt).
#define CALX_TEST_PART 1
#define CALX_TEST_REALS float
#include <_include/fori_loop_cases.hpp>
