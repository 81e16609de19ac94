/// @file tests/scan.4.cpp
/// @brief tests/_include/scan_cases.hpp, part 5 of 8 (cases 3, 4, float): a TU of
/// its own for the compile budget (bench/compile/budget.txt).
#define CALX_TEST_PART 2
#define CALX_TEST_REALS float
#include <_include/scan_cases.hpp>
