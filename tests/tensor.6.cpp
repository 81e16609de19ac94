/// @file tests/tensor.6.cpp
/// @brief tests/_include/tensor_cases.hpp, part 7 of 8 (cases 14, 15, 16, 17, 18, 19): a TU of its own
/// for the compile budget (bench/compile/budget.txt).
#define CALX_TEST_PART 6
#include <_include/tensor_cases.hpp>
