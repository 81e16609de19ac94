/// @file tests/tensor.0.cpp
/// @brief tests/_include/tensor_cases.hpp, part 1 of 8 (cases 1, 2, 3, 4, 5): a TU of its own
/// for the compile budget (bench/compile/budget.txt).
#define CALX_TEST_PART 0
#include <_include/tensor_cases.hpp>
