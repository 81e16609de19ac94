/// @file tests/tensor.2.cpp
/// @brief tests/_include/tensor_cases.hpp, part 3 of 8 (case 9): a TU of its own
/// for the compile budget (bench/compile/budget.txt).
#define CALX_TEST_PART 2
#include <_include/tensor_cases.hpp>
