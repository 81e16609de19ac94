/// @file tests/loop_tensors.5.cpp
/// @brief tests/_include/loop_tensors_cases.hpp, part 6 of 7 (case 2's Hessians): a TU of its
/// own for the compile budget (bench/compile/budget.txt).
#define CALX_TEST_PART 5
#define CALX_TEST_REALS float, double
#include <_include/loop_tensors_cases.hpp>
