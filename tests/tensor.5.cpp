/// @file tests/tensor.5.cpp
/// @brief tests/_include/tensor_cases.hpp, part 6 of 8 (cases 12, 13): a TU of its own
/// for the compile budget (bench/compile/budget.txt).
#define CALX_TEST_PART 5
#include <_include/tensor_cases.hpp>
