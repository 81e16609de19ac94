/// @file tests/scan.6.cpp
/// @brief tests/_include/scan_cases.hpp, part 7 of 8 (cases 5, 6, float): a TU of
/// its own for the compile budget (bench/compile/budget.txt).
#define CALX_TEST_PART 3
#define CALX_TEST_REALS float
#include <_include/scan_cases.hpp>
