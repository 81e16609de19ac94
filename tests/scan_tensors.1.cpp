/// @file tests/scan_tensors.1.cpp
/// @brief tests/_include/scan_tensors_cases.hpp, part 2 of 5 (case 1, double): a TU of its own
/// for the compile budget (bench/compile/budget.txt).
#define CALX_TEST_PART 0
#define CALX_TEST_REALS double
#include <_include/scan_tensors_cases.hpp>
