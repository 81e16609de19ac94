/// @file tests/scan.1.cpp
/// @brief tests/_include/scan_cases.hpp, part 2 of 8 (cases 1, 2: the program, values and first derivatives, double): a TU of
/// its own for the compile budget (bench/compile/budget.txt).
#define CALX_TEST_PART 0
#define CALX_TEST_REALS double
#include <_include/scan_cases.hpp>
