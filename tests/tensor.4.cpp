/// @file tests/tensor.4.cpp
/// @brief tests/_include/tensor_cases.hpp, part 5 of 8 (case 11): a TU of its own
/// for the compile budget (bench/compile/budget.txt).
#define CALX_TEST_PART 4
#include <_include/tensor_cases.hpp>
