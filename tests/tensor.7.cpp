/// @file tests/tensor.7.cpp
/// @brief tests/_include/tensor_cases.hpp, part 8 of 8 (case 10, the table's second half): a
/// TU of its own for the compile budget (bench/compile/budget.txt).
#define CALX_TEST_PART 7
#include <_include/tensor_cases.hpp>
