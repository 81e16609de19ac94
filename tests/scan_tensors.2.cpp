/// @file tests/scan_tensors.2.cpp
/// @brief tests/_include/scan_tensors_cases.hpp, part 3 of 5 (case 2, float): a TU of its own
/// for the compile budget (bench/compile/budget.txt).
#define CALX_TEST_PART 1
#define CALX_TEST_REALS float
#include <_include/scan_tensors_cases.hpp>
