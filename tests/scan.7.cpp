/// @file tests/scan.7.cpp
/// @brief tests/_include/scan_cases.hpp, part 8 of 8 (cases 5, 6, double): a TU of
/// its own for the compile budget (bench/compile/budget.txt).
#define CALX_TEST_PART 3
#define CALX_TEST_REALS double
#include <_include/scan_cases.hpp>
