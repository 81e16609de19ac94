/// @file tests/vmap.compose.1.cpp
/// @brief tests/_include/vmap_compose_cases.hpp, part 2 of 2 (cases 4, 5): a TU of its own
/// for the compile budget (bench/compile/budget.txt).
#define CALX_TEST_PART 1
#include <_include/vmap_compose_cases.hpp>
