/// @file tests/loop_tensors.large.2.cpp
/// @brief tests/_include/loop_large_cases.hpp, part 3 of 3 (forward mode): a TU of its own
/// for the compile budget.
#define CALX_TEST_PART 2
#include <_include/loop_large_cases.hpp>
