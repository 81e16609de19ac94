/// @file tests/_include/fusion_roles.hpp
/// @brief For the fusion tests (tests/tensor.fusion*.cpp): the straight-line program of a
/// function traced on given argument types, the roles fusion gives its nodes, and how many
/// nodes have a role. Usable in constant expressions (STATIC_REQUIRE).
#ifndef CALX_TESTS_FUSION_ROLES_HPP
#define CALX_TESTS_FUSION_ROLES_HPP

#include <calx/calx.hpp>

namespace calx_test {

using calx::detail::fused_role;

/// The program of `f` traced on arguments of types `A...`, with straight-line registers, and
/// the roles fusion gives its nodes.
template <class F, class... A>
constexpr const auto& program =
    calx::detail::materialized<calx::detail::trace_source<F, calx::detail::rebind_t<A, calx::tracer>...>>::slotted;
template <class F, class... A>
constexpr const auto& roles = calx::detail::fusion_of<program<F, A...>>;

/// The number of nodes of role `x` in `r`.
template <class Roles>
constexpr int count_role(const Roles& r, fused_role x) {
  int n = 0;
  for (fused_role v : r) n += v == x ? 1 : 0;
  return n;
}

}  // namespace calx_test

#endif  // CALX_TESTS_FUSION_ROLES_HPP
