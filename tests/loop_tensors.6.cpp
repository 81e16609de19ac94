/// @file tests/loop_tensors.6.cpp
/// @brief tests/_include/loop_tensors_cases.hpp, part 7 of 7 (case 2's grad of grad and mixed
/// Hessian): a TU of its own for the compile budget (bench/compile/budget.txt).
#define CALX_TEST_PART 6
#define CALX_TEST_REALS float, double
#include <_include/loop_tensors_cases.hpp>
