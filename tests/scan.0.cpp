/// @file tests/scan.0.cpp
/// @brief tests/_include/scan_cases.hpp, part 1 of 8 (cases 1, 2: the program, values and first derivatives, float): a TU of
/// its own for the compile budget (bench/compile/budget.txt).
#define CALX_TEST_PART 0
#define CALX_TEST_REALS float
#include <_include/scan_cases.hpp>
