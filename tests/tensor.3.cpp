/// @file tests/tensor.3.cpp
/// @brief tests/_include/tensor_cases.hpp, part 4 of 8 (case 10, the table's first half): a TU of its own
/// for the compile budget (bench/compile/budget.txt).
#define CALX_TEST_PART 3
#include <_include/tensor_cases.hpp>
