/// @file cond.hpp
/// @brief `calx::cond(pred, true_fn, false_fn, operands...)`: JAX's `lax.cond`. On a traced
/// predicate it is one IR node (calx/detail/call/branch_op.hpp) whose branches are
/// sub-programs (each function traced once), its operands and results any structures of
/// scalars and tensors: on numbers only the branch taken runs; under vmap with a per-sample
/// predicate, lanes that disagree run both and select; its derivatives are conds of the
/// branches' jvps and vjps, so no derivative of the branch not taken reaches the result.
#ifndef CALX_COND_HPP
#define CALX_COND_HPP

#include <calx/config.hpp>
#include <calx/detail/call/branch_op.hpp>
#include <calx/detail/call/trace_source.hpp>
#include <calx/detail/diagnostics.hpp>
#include <calx/detail/invalid_program.hpp>
#include <calx/math.hpp>
#include <calx/tensor_type.hpp>
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
    return traced_cond<F, G>(*pred.graph, tracer(calx::where(pred, 1.0, 0.0)).id, x...);
  }

  /// A rank-0 tensor of bool (a comparison of reductions, `calx::sum(t) > 0.0`), as
  /// `lax.cond` takes a 0-d array: traced, one `cond` node; of numbers, the branch it names.
  /// Which it is, only the value tells where the operands are tensors (or traced scalars),
  /// whose types are the same traced or not; with plain numbers as operands it must be a
  /// number.
  template <class P, class F, class G, class... X>
    requires(std::same_as<P, tensor<bool>>)  // deduced, not converted to: a bool is the overload below
  constexpr auto operator()(const P& pred, const F& true_fn, const G& false_fn, const X&... x) const {
    constexpr bool self_traced = (std::is_same_v<detail::rebind_t<X, tracer>, std::remove_cvref_t<X>> && ...);
    constexpr bool any_tracer = (detail::any_leaf_v<X, detail::is_tracer> || ...);
    if constexpr (sizeof...(X) > 0 && self_traced) {
      if (detail::traced_tensor_among(pred)) {
        const tracer p = tree_node<tensor<double>>::traced(calx::where(pred, 1.0, 0.0));
        return traced_cond<F, G>(*p.graph, p.id, x...);
      }
      return (*this)(static_cast<bool>(pred), true_fn, false_fn, x...);
    } else if constexpr (any_tracer) {
      const tracer p = tree_node<tensor<double>>::traced(calx::where(pred, 1.0, 0.0));
      return traced_cond<F, G>(*p.graph, p.id, x...);
    } else {
      return (*this)(static_cast<bool>(pred), true_fn, false_fn, x...);  // a traced one is reported there
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
 private:
  /// The `cond` node on the predicate's node `pred` (1 or 0) of `g`.
  template <class F, class G, class... X>
  static constexpr auto traced_cond(detail::graph& g, int pred, const X&... x) {
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
        std::vector<int> in{pred};
        for (int id : detail::value_ids(&g, x...)) in.push_back(id);
        return detail::record_results<Op, TF>(g, in.data());
      } else {
        return detail::invalid_program{};
      }
    } else {
      return detail::invalid_program{};
    }
  }
};
/// `calx::cond(pred, true_fn, false_fn, operands...)`: see cond_fn.
inline constexpr cond_fn cond{};

CALX_END_NAMESPACE

#endif  // CALX_COND_HPP
