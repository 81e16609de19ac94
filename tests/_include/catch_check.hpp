/// @file tests/_include/catch_check.hpp
/// @brief The `check(name, ok, detail)` of the device cases (tests/_include/device_matrix.hpp,
/// indexing_device_cases.hpp) as a Catch2 check, for their host runs (CALX_DEVICE_ON_HOST);
/// on a GPU, tests/cuda/device_main.cuh prints them instead.
#ifndef CALX_TESTS_CATCH_CHECK_HPP
#define CALX_TESTS_CATCH_CHECK_HPP

#include <catch2/catch.hpp>

#include <string>

namespace calx_test {

struct catch_check {
  void operator()(const std::string& name, bool ok, const std::string& detail) const {
    INFO(name << ": " << detail);
    CHECK(ok);
  }
};

}  // namespace calx_test

#endif  // CALX_TESTS_CATCH_CHECK_HPP
