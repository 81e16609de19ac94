/// @file tests/vmap.device.1.cpp
/// @brief tests/_include/vmap_device_cases.hpp, part 2 of 2 (in float): a TU of
/// its own for the compile budget (bench/compile/budget.txt).
#define CALX_DEVICE_ON_HOST 1
#define CALX_TEST_PART 1
#define CALX_TEST_REALS float
#include <_include/vmap_device_cases.hpp>
