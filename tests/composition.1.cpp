/// @file tests/composition.1.cpp
/// @brief tests/_include/composition_cases.hpp, part 2 of 2 (perturbation confusion, stop_gradient, the IR size of grad^k): a TU of its
/// own for the compile budget (bench/compile/budget.txt).
#define CALX_TEST_PART 1
#include <_include/composition_cases.hpp>
