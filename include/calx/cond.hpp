/// @file cond.hpp
/// @brief `calx::cond(pred, true_fn, false_fn, operands...)`: JAX's `lax.cond`. On a traced
/// predicate it is one IR node (calx/branch_op.hpp) whose branches are sub-programs (each
/// function traced once), its operands and results any structures of scalars and tensors:
/// on numbers only the branch taken runs; under vmap with a per-sample predicate, lanes
/// that disagree run both and select; its derivatives are conds of the branches' jvps and
/// vjps, so no derivative of the branch not taken reaches the result.
#ifndef CALX_COND_HPP
#define CALX_COND_HPP

#include <calx/branch_op.hpp>
#include <calx/config.hpp>
#include <calx/detail/call/trace_source.hpp>
#include <calx/detail/diagnostics.hpp>
#include <calx/detail/invalid_program.hpp>
#include <calx/math.hpp>
#include <calx/tracer.hpp>
#include <calx/tree.hpp>

#include <array>
#include <concepts>
#include <cstddef>
#include <type_traits>
#include <vector>

CALX_BEGIN_NAMESPACE

struct cond_fn {
  /// A traced predicate: one `cond` node. `true_fn` and `false_fn` take the operands
  /// (numbers, traced scalars, tensors, in std::arrays, tuples and pairs) and return the
  /// same structure.
  template <class P, class F, class G, class... X>
    requires(std::same_as<P, bool_tracer>)
  constexpr auto operator()(const P& pred, const F&, const G&, const X&... x) const {
    constexpr bool stateless = detail::stateless_v<F> && detail::stateless_v<G>;
    static_assert(stateless, CALX_MSG_COND_STATELESS);
    constexpr bool operands = (!detail::has_batch_v<X> && ...);
    static_assert(!stateless || operands, CALX_MSG_COND_OPERANDS);
    if constexpr (stateless && operands) {
      using SF = detail::trace_source<F, detail::rebind_t<X, tracer>...>;
      using SG = detail::trace_source<G, detail::rebind_t<X, tracer>...>;
      using TF = detail::rebind_t<typename SF::output_tree, tracer>;
      using TG = detail::rebind_t<typename SG::output_tree, tracer>;
      constexpr bool same = std::is_same_v<TF, TG>;
      static_assert(same, CALX_MSG_COND_RESULTS);
      if constexpr (same) {
        using Op = detail::branch_op<detail::type_list<SF, SG>>;
        detail::graph& g = *pred.graph;
        std::vector<int> in{tracer(calx::where(pred, 1.0, 0.0)).id};
        for (int id : detail::value_ids(&g, x...)) in.push_back(id);
        return detail::record_results<Op, TF>(g, in.data());
      } else {
        return detail::invalid_program{};
      }
    } else {
      return detail::invalid_program{};
    }
  }

  /// A plain `bool`: the branch it names, called (traced or not), as Python's `if` in JAX.
  template <class F, class G, class... X>
  constexpr auto operator()(bool pred, const F& true_fn, const G& false_fn, const X&... x) const {
    using TF = std::invoke_result_t<const F&, const X&...>;
    using TG = std::invoke_result_t<const G&, const X&...>;
    constexpr bool same = std::is_same_v<std::remove_cvref_t<TF>, std::remove_cvref_t<TG>>;
    static_assert(same, CALX_MSG_COND_RESULTS);
    if constexpr (same)
      return pred ? true_fn(x...) : false_fn(x...);
    else
      return detail::invalid_program{};
  }
};
/// `calx::cond(pred, true_fn, false_fn, operands...)`: see cond_fn.
inline constexpr cond_fn cond{};

CALX_END_NAMESPACE

#endif  // CALX_COND_HPP
