/// @file tests/vmap.compose.0.cpp
/// @brief tests/_include/vmap_compose_cases.hpp, part 1 of 2 (cases 1, 2, 3): a TU of its own
/// for the compile budget (bench/compile/budget.txt).
#define CALX_TEST_PART 0
#include <_include/vmap_compose_cases.hpp>
