/// @file tests/scan.1.cpp
/// @brief tests/_include/scan_cases.hpp, part 2 of 6 (cases 1, 2, double): a TU of its own
/// for the compile budget (bench/compile/budget.txt).
#define CALX_TEST_PART 0
#define CALX_TEST_REALS double
#include <_include/scan_cases.hpp>
