/// @file tests/scan.3.cpp
/// @brief tests/_include/scan_cases.hpp, part 4 of 8 (case 2's hessian, double): a TU of
/// its own for the compile budget (bench/compile/budget.txt).
#define CALX_TEST_PART 1
#define CALX_TEST_REALS double
#include <_include/scan_cases.hpp>
