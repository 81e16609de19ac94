/// @file tests/scan_tensors.3.cpp
/// @brief tests/_include/scan_tensors_cases.hpp, part 4 of 5 (case 2, double): a TU of its own
/// for the compile budget (bench/compile/budget.txt).
#define CALX_TEST_PART 1
#define CALX_TEST_REALS double
#include <_include/scan_tensors_cases.hpp>
