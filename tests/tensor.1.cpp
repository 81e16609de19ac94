/// @file tests/tensor.1.cpp
/// @brief tests/_include/tensor_cases.hpp, part 2 of 8 (cases 6, 7, 8): a TU of its own
/// for the compile budget (bench/compile/budget.txt).
#define CALX_TEST_PART 1
#include <_include/tensor_cases.hpp>
