/// @file tests/loop_carries.scan.2.cpp
/// @brief tests/_include/loop_carries_scan_cases.hpp, part 3 of 3 (the second derivatives of
/// case 2): a TU of its own for the compile budget (bench/compile/budget.txt).
#define CALX_TEST_PART 2
#include <_include/loop_carries_scan_cases.hpp>
