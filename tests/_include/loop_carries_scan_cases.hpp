/// @file tests/_include/loop_carries_scan_cases.hpp
/// @brief The cases of tests/loop_carries.scan.*.cpp, split into translation units for the
/// compile budget (each TU defines CALX_TEST_PART and includes this):
/// `scan` with a carry that mixes tensors, numbers and nested structures, per-step inputs and
/// outputs: jacfwd, jacrev, hessian, vmap of jacfwd. See tests/_include/loop_carries.hpp for the carry, the references and the
/// tolerances (issue 31). One loop kind per translation unit: each instantiates every transform
/// of its loop, and the three together exceed a test TU's memory budget.
#ifndef CALX_TESTS_LOOP_CARRIES_SCAN_CASES_HPP
#define CALX_TESTS_LOOP_CARRIES_SCAN_CASES_HPP

#include <_include/loop_carries.hpp>

#include <calx/calx.hpp>

#include <catch2/catch.hpp>

#include <cstddef>
#include <utility>

namespace {

using namespace loop_carries;

#if CALX_TEST_PART == 0
TEST_CASE("loop carries: scan over xs of numbers made in the traced function", "[scan][tensor]") {
  // xs is a tensor of numbers, not traced (its type does not say so): a constant operand.
  // Reverse mode once refused it ("a tensor of numbers where traced values are expected").
  constexpr auto f = [](auto s) {
    calx::tensor<double, 3> xs;
    for (std::size_t k = 0; k < 3; ++k) xs[k] = 0.1 * static_cast<double>(k) + 0.5;
    const auto [c, ys] = calx::scan([](auto c, const auto& x) { return std::pair{c * x, c}; }, s, xs);
    return c + calx::sum(ys);
  };
  // c = 0.21 s; ys = (s, 0.5 s, 0.3 s).
  check_near("grad", num(calx::grad(f)(2.0)), 0.21 + 1.8, 4e-16);
  check_near("jacrev", num(calx::jacrev(f)(2.0)), 0.21 + 1.8, 4e-16);
  check_near("jacfwd", num(calx::jacfwd(f)(2.0)), 0.21 + 1.8, 4e-16);
}
#endif

#if CALX_TEST_PART == 1
TEST_CASE("loop carries: scan, tensors beside numbers in nested structures", "[scan][tensor]") {
  check_jacobians<true>(through_scan);
  check_vmap(through_scan);
}
#endif

// Part 2: the second derivatives of the same scan (a TU of its own: with the Jacobians and
// vmap, 50 s; each part alone pays for the scan op's description and its derivative loops).
#if CALX_TEST_PART == 2
TEST_CASE("loop carries: scan, tensors beside numbers in nested structures, second order", "[scan][tensor]") {
  check_second<true>(through_scan);
}
#endif

}  // namespace

#endif  // CALX_TESTS_LOOP_CARRIES_SCAN_CASES_HPP
