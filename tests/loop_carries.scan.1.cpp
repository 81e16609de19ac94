/// @file tests/loop_carries.scan.1.cpp
/// @brief tests/_include/loop_carries_scan_cases.hpp, part 2 of 3 (case 2: its Jacobians and
/// vmap): a TU of its own for the compile budget (bench/compile/budget.txt).
#define CALX_TEST_PART 1
#include <_include/loop_carries_scan_cases.hpp>
