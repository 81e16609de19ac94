/// @file tests/tensor.indexing.device.cpp
/// @brief tests/_include/indexing_device_cases.hpp with CALX_DEVICE_ON_HOST: the runtime-index
/// ops on the CUDA backend's path, its kernels' code run serially on the host, in f64 and f32.
#define CALX_DEVICE_ON_HOST 1

#include <_include/catch_check.hpp>
#include <_include/indexing_device_cases.hpp>

#include <catch2/catch.hpp>

TEMPLATE_TEST_CASE("index ops run in device code", "[tensor][indexing][device]", double, float) {
  calx_test::catch_check check;
  calx_device_test::run_indexing<TestType>(check, nullptr);
}
