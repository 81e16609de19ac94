/// @file tests/scan.2.cpp
/// @brief tests/_include/scan_cases.hpp, part 3 of 8 (case 2's hessian, float): a TU of
/// its own for the compile budget (bench/compile/budget.txt).
#define CALX_TEST_PART 1
#define CALX_TEST_REALS float
#include <_include/scan_cases.hpp>
