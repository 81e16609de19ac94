/// @file tests/composition.0.cpp
/// @brief tests/_include/composition_cases.hpp, part 1 of 2 (grad³, jvp of grad and grad of jvp, jacfwd(jacrev)): a TU of its
/// own for the compile budget (bench/compile/budget.txt).
#define CALX_TEST_PART 0
#include <_include/composition_cases.hpp>
