/// @file tests/scan.5.cpp
/// @brief tests/_include/scan_cases.hpp, part 6 of 8 (cases 3, 4, double): a TU of
/// its own for the compile budget (bench/compile/budget.txt).
#define CALX_TEST_PART 2
#define CALX_TEST_REALS double
#include <_include/scan_cases.hpp>
