/// @file tests/vmap.device.0.cpp
/// @brief tests/_include/vmap_device_cases.hpp, part 1 of 2 (in double; the lengths; the
/// block sums): a TU of its own for the compile budget (bench/compile/budget.txt).
#define CALX_DEVICE_ON_HOST 1
#define CALX_TEST_PART 0
#define CALX_TEST_REALS double
#include <_include/vmap_device_cases.hpp>
