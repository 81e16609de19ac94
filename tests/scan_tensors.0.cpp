/// @file tests/scan_tensors.0.cpp
/// @brief tests/_include/scan_tensors_cases.hpp, part 1 of 5 (case 1, float): a TU of its own
/// for the compile budget (bench/compile/budget.txt).
#define CALX_TEST_PART 0
#define CALX_TEST_REALS float
#include <_include/scan_tensors_cases.hpp>
