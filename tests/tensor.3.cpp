/// @file tests/tensor.3.cpp
/// @brief tests/_include/tensor_cases.hpp, part 4 of 7 (case 10): a TU of its own
/// for the compile budget (bench/compile/budget.txt).
#define CALX_TEST_PART 3
#include <_include/tensor_cases.hpp>
