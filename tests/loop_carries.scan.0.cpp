/// @file tests/loop_carries.scan.0.cpp
/// @brief tests/_include/loop_carries_scan_cases.hpp, part 1 of 3 (case 1): a TU of its own
/// for the compile budget (bench/compile/budget.txt).
#define CALX_TEST_PART 0
#include <_include/loop_carries_scan_cases.hpp>
