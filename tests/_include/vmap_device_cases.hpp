/// @file tests/_include/vmap_device_cases.hpp
/// @brief The cases of tests/vmap.device.*.cpp, split into translation units for the
/// compile budget (each TU defines CALX_TEST_PART, CALX_TEST_REALS and CALX_DEVICE_ON_HOST
/// and includes this): vmap over calx::device_span, the CUDA backend's path, with
/// CALX_DEVICE_ON_HOST: device memory is host memory and the kernels' code (one sample per
/// thread, the blocks' tree sums, the chunk-ordered totals) runs serially on the host, so
/// every CI run checks the device path's code generation against the SIMD executor without
/// a GPU. The same matrix runs on a GPU in tests/cuda/vmap_device.cu. Also: the misuses
/// that are runtime errors (lengths), and the launch-independent sums.
#ifndef CALX_TESTS_VMAP_DEVICE_CASES_HPP
#define CALX_TESTS_VMAP_DEVICE_CASES_HPP

#ifndef CALX_DEVICE_ON_HOST  // defined by each TU itself: tests/CMakeLists.txt reads it there (no PCH)
#error "tests/vmap.device.*.cpp define CALX_DEVICE_ON_HOST before including this"
#endif

#include <_include/catch_check.hpp>
#include <_include/device_matrix.hpp>

#include <calx/calx.hpp>

#include <catch2/catch.hpp>

#include <stdexcept>
#include <string>
#include <vector>

using calx_test::catch_check;

// Part 0 in double, part 1 in float (CALX_TEST_REALS).
TEMPLATE_TEST_CASE("vmap over device spans agrees with the SIMD executor", "[vmap][device]", CALX_TEST_REALS) {
  catch_check check;
  calx_device_test::run_matrix<TestType>(check, nullptr);
}

TEMPLATE_TEST_CASE("cond and checkpoint over device spans agree with the SIMD executor", "[vmap][device]", CALX_TEST_REALS) {
  catch_check check;
  calx_device_test::run_control_flow<TestType>(check, nullptr);
}

#if CALX_TEST_PART == 0
TEST_CASE("vmap over device spans: lengths are checked", "[vmap][device]") {
  const std::vector<double> a(10, 1.0), b(11, 2.0);
  calx::device_vector<double> da{a}, db{b}, out(10), short_out(9);
  calx::device_span<double> o(out), s(short_out);
  const calx::device_span<const double> x(da), y(db);
  try {
    calx::vmap(calx_device_test::f2).into(o)(x, y);
    FAIL("no exception");
  } catch (const std::invalid_argument& e) {
    CHECK(std::string(e.what()) == "calx::vmap: batched arguments have different lengths: argument 0 has 10 samples, argument 1 has 11");
  }
  try {
    calx::vmap(calx_device_test::f2).into(s)(x, x);
    FAIL("no exception");
  } catch (const std::invalid_argument& e) {
    CHECK(std::string(e.what()) == "calx::vmap: an output buffer has 9 elements for a batch of 10");
  }
}
#endif

#if CALX_TEST_PART == 0
TEST_CASE("sums over device samples follow the fixed tree of a block", "[vmap][device]") {
  // group_sum adds 256 terms as the kernel's block does: v[t] += v[t + s] for t < s, s
  // halving from 128. With 1e16 at 0, -1e16 at 128 and ones elsewhere, the tree first
  // cancels the big pair and keeps every one (254); a sum in order loses the ones that come
  // after 1e16 (127).
  std::vector<double> v(calx::detail::device_group, 1.0);
  v[0] = 1e16;
  v[128] = -1e16;
  double in_order = 0;
  for (double x : v) in_order += x;
  CHECK(in_order == 127.0);
  CHECK(calx::detail::group_sum(v.data()) == 254.0);
}
#endif

#endif  // CALX_TESTS_VMAP_DEVICE_CASES_HPP
