/// @file tests/jacobian.basis.2.cpp
/// @brief Jacobians over tensors of more than `unrolled_basis_max` (8) elements: one loop
/// over the basis per input (jacfwd) or output (jacrev) value, not a pass per element
/// (detail/call/jacobian.hpp). The numbers are those of jvp and vjp along each basis
/// vector and of the closed forms, the blocks lie as JAX lays them out, vmap runs the loop
/// per SIMD group, and the IR is the same size whatever the number of elements.
/// Part 2: the IR's size (part 0: first-order Jacobians; part 1: Hessians, a third
/// derivative and vmap).

#include <_include/ir_inspect.hpp>
#include <_include/jacobian_basis_cases.hpp>

#include <calx/calx.hpp>

#include <catch2/catch.hpp>

#include <type_traits>

namespace {

using namespace calx_test::basis_cases;

TEST_CASE("a Jacobian's IR does not grow with the elements", "[transform][jacfwd][jacrev][hessian][basis]") {
  constexpr auto size_of = [](const auto& p) { return std::remove_cvref_t<decltype(p.ir)>::size; };
  constexpr auto fwd = [](auto x) { return calx::jacfwd(squashed{})(x); };
  constexpr auto rev = [](auto x) { return calx::jacrev(squashed{})(x); };
  constexpr auto hess = [](auto x) { return calx::hessian(energy{})(x); };
  STATIC_REQUIRE(size_of(calx::trace(fwd, vec<20>{})) == size_of(calx::trace(fwd, vec<200>{})));
  STATIC_REQUIRE(size_of(calx::trace(rev, vec<20>{})) == size_of(calx::trace(rev, vec<200>{})));
  STATIC_REQUIRE(size_of(calx::trace(hess, vec<20>{})) == size_of(calx::trace(hess, vec<200>{})));
  // One loop each: printed `scan`, its body the pass along one basis vector.
  STATIC_REQUIRE(calx_test::count_named(calx::trace(fwd, vec<20>{}).ir, "scan") == 1);
  STATIC_REQUIRE(calx_test::count_named(calx::trace(rev, vec<20>{}).ir, "scan") == 1);
  // Up to `unrolled_basis_max` (8) elements the passes are written out: no loop; one more
  // element, one loop.
  STATIC_REQUIRE(calx_test::count_named(calx::trace(fwd, vec<8>{}).ir, "scan") == 0);
  STATIC_REQUIRE(calx_test::count_named(calx::trace(fwd, vec<9>{}).ir, "scan") == 1);
}

}  // namespace
