/// @file tests/scan.3.cpp
/// @brief tests/_include/scan_cases.hpp, part 4 of 6 (cases 3, 4, double): a TU of its own
/// for the compile budget (bench/compile/budget.txt).
#define CALX_TEST_PART 1
#define CALX_TEST_REALS double
#include <_include/scan_cases.hpp>
