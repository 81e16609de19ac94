/// @file tests/loop_carries.fori.cpp
/// @brief `fori_loop` with a carry that mixes tensors, numbers and nested structures: jacfwd, jacrev,
/// hessian, vmap of jacfwd. See tests/_include/loop_carries.hpp for the carry, the references and the
/// tolerances (issue 31). One loop kind per translation unit: each instantiates every transform
/// of its loop, and the three together exceed a test TU's memory budget.

#include <_include/loop_carries.hpp>

#include <calx/calx.hpp>

#include <catch2/catch.hpp>

#include <cstddef>
#include <utility>

namespace {

using namespace loop_carries;

TEST_CASE("loop carries: fori_loop, tensors beside numbers in nested structures", "[fori_loop][tensor]") {
  check_jacobians<true>(through_fori);
  check_second<true>(through_fori);
  check_vmap(through_fori);
}

}  // namespace
