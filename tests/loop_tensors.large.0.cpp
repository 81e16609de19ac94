/// @file tests/loop_tensors.large.0.cpp
/// @brief tests/_include/loop_large_cases.hpp, part 1 of 3 (a constant trip count: values
/// and grad): a TU of its own for the compile budget.
#define CALX_TEST_PART 0
#include <_include/loop_large_cases.hpp>
