/// @file checkpoint.hpp
/// @brief `calx::checkpoint(f)`: JAX's `jax.checkpoint` (remat). Reverse mode recomputes
/// `f`'s intermediates from its arguments in the backward pass instead of storing them: a
/// vjp's pullback or a linearize map keeps `f`'s arguments only. A policy says what may be
/// stored: `calx::policy::nothing_saveable` (the default) or
/// `calx::policy::everything_saveable` (`f` as it is).
///
/// On traced values a checkpoint is one IR node (calx/detail/call/branch_op.hpp, one
/// branch) whose body is `f`'s program, printed nested. Its derivatives are checkpoints
/// again, of `f`'s jvp and of `f`'s vjp: the reverse rule's node runs `f` forward and
/// backward together, from the arguments, which is the recomputation.
#ifndef CALX_CHECKPOINT_HPP
#define CALX_CHECKPOINT_HPP

#include <calx/config.hpp>
#include <calx/detail/call/branch_op.hpp>
#include <calx/detail/call/trace_source.hpp>
#include <calx/detail/diagnostics.hpp>
#include <calx/detail/invalid_program.hpp>
#include <calx/tracer.hpp>
#include <calx/tree.hpp>

#include <array>
#include <cstddef>
#include <type_traits>
#include <vector>

CALX_BEGIN_NAMESPACE

/// What a checkpoint may store for the backward pass (JAX's `jax.checkpoint_policies`).
namespace policy {
/// Store nothing of `f` but its arguments: recompute the rest (the default).
struct nothing_saveable_t {
  explicit nothing_saveable_t() = default;
};
inline constexpr nothing_saveable_t nothing_saveable{};
/// Store everything: `f` as if not checkpointed.
struct everything_saveable_t {
  explicit everything_saveable_t() = default;
};
inline constexpr everything_saveable_t everything_saveable{};
}  // namespace policy

namespace detail {

template <class P>
concept checkpoint_policy =
    std::is_same_v<P, policy::nothing_saveable_t> || std::is_same_v<P, policy::everything_saveable_t>;

}  // namespace detail

/// `f` checkpointed under policy `P`: a stateless callable, so transforms take it.
template <class F, class P>
struct checkpointed {
  template <class... A>
  constexpr auto operator()(const A&... a) const {
    constexpr bool scalars = (detail::any_leaf_v<A, detail::is_tracer> || ...);
    constexpr bool tensors = (detail::holds_whole_node<A>() || ...);
    if constexpr ((!scalars && !tensors) || std::is_same_v<P, policy::everything_saveable_t>) {
      return detail::make_stateless<F>()(a...);
    } else {
      constexpr bool reals = !(detail::has_integer_v<A> || ...) && !(detail::has_batch_v<A> || ...);
      static_assert(reals, CALX_MSG_CHECKPOINT_ARGUMENTS);
      if constexpr (reals) {
        // Tensors are traced or not by value, not by type: numbers run `f` as it is.
        if constexpr (!scalars)
          if (!detail::traced_tensor_among(a...)) return detail::make_stateless<F>()(a...);
        return record(a...);
      } else {
        return detail::invalid_program{};
      }
    }
  }

 private:
  template <class... A>
  static constexpr auto record(const A&... a) {
    using S = detail::trace_source<F, detail::rebind_t<A, tracer>...>;
    using Op = detail::branch_op<detail::type_list<S>>;
    using R = detail::rebind_t<typename S::output_tree, tracer>;
    detail::graph* g = detail::common_graph_of(a...);
    std::vector<int> in = detail::value_ids(g, a...);
    return detail::record_results<Op, R>(*g, in.data());
  }
};

struct checkpoint_fn {
  /// `f` whose intermediates the backward pass recomputes; `policy` says what it may store.
  template <class F, class P = policy::nothing_saveable_t>
  constexpr auto operator()(const F&, const P& = P{}) const {
    constexpr bool known = detail::checkpoint_policy<P>;
    static_assert(known, CALX_MSG_CHECKPOINT_POLICY);
    constexpr bool stateless = detail::stateless_v<F>;
    static_assert(!known || stateless, CALX_MSG_CAPTURES_IN("checkpoint"));
    if constexpr (known && stateless)
      return checkpointed<F, P>{};
    else
      return detail::invalid_program{};
  }
};
/// `calx::checkpoint(f)`, `calx::checkpoint(f, calx::policy::everything_saveable)`: see
/// checkpoint_fn.
inline constexpr checkpoint_fn checkpoint{};

CALX_END_NAMESPACE

#endif  // CALX_CHECKPOINT_HPP
