/// @file tests/scan.5.cpp
/// @brief tests/_include/scan_cases.hpp, part 6 of 6 (cases 5, 6, double): a TU of its own
/// for the compile budget (bench/compile/budget.txt).
#define CALX_TEST_PART 2
#define CALX_TEST_REALS double
#include <_include/scan_cases.hpp>
