/// @file tests/loop_tensors.large.1.cpp
/// @brief tests/_include/loop_large_cases.hpp, part 2 of 3 (a runtime trip count: values and grad): a TU of its own
/// for the compile budget.
#define CALX_TEST_PART 1
#include <_include/loop_large_cases.hpp>
