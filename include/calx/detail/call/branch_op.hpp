/// @file detail/call/branch_op.hpp
/// @brief The op behind `calx::checkpoint` and `calx::cond`: one IR node that runs one of
/// its sub-programs (its branches, functions traced once) on its operands, structures of
/// traced scalars and tensors. One branch is a checkpoint; two are a cond, its first
/// operand the predicate (nonzero: the first branch). Its kernel runs the branch taken on
/// numbers; the SIMD loop runs its decomposition, the branches written out (for a cond,
/// both and a select per lane).
/// Its derivatives are branch ops again, of the branches' jvps and vjps, so reverse mode
/// reads the operands only (a checkpoint recomputes; a cond differentiates the branch
/// taken only).
#ifndef CALX_DETAIL_CALL_BRANCH_OP_HPP
#define CALX_DETAIL_CALL_BRANCH_OP_HPP

#include <calx/detail/internal_header_check.hpp>

#include <calx/config.hpp>
#include <calx/detail/call/late_call.hpp>
#include <calx/detail/call/loop_op.hpp>
#include <calx/detail/call/trace_source.hpp>
#include <calx/detail/exec/evaluate.hpp>
#include <calx/detail/passes/autodiff.hpp>
#include <calx/detail/passes/expand.hpp>
#include <calx/detail/passes/ir_text.hpp>
#include <calx/detail/passes/replay.hpp>
#include <calx/detail/passes/sources.hpp>
#include <calx/detail/type_list.hpp>
#include <calx/math.hpp>
#include <calx/op_traits.hpp>
#include <calx/tracer.hpp>
#include <calx/tree.hpp>

#include <array>
#include <cstddef>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

CALX_BEGIN_NAMESPACE

namespace detail {

/// The op: branches `Sources` (a `type_list` of one or two programs: trace sources of the
/// user's functions, or jvp and vjp sources of those), all with the same inputs and
/// outputs. Operands: with two branches the predicate, then the programs' inputs; results:
/// the programs' outputs.
template <class Sources>
struct branch_op {};

template <class... T>
inline constexpr std::size_t values_of_v = (std::size_t{0} + ... + value_count_v<T>);

/// A branch's forward mode, (x, t) -> (y, dy), and reverse mode, (x, ct) -> (y, ct_x): the
/// transform passes' own programs (detail/passes/sources.hpp).
template <class S>
using jvp_branch = jvp_source<S, range_spec<0, inner_ir_t<S>::input_count>>;
template <class S>
using vjp_branch = vjp_source<S, range_spec<0, inner_ir_t<S>::input_count>, range_spec<0, inner_ir_t<S>::output_count>, true>;

/// 0 for a user's branch, 1 for its jvp or vjp: the derivatives of those are written out
/// in place (see `branch_rules`), so the op types stop there whatever the order.
template <class S>
inline constexpr int branch_order_v = 0;
template <class S, class W>
inline constexpr int branch_order_v<jvp_source<S, W>> = 1 + branch_order_v<S>;
template <class S, class W, class O>
inline constexpr int branch_order_v<vjp_source<S, W, O, true>> = 1 + branch_order_v<S>;

template <class Sources>
struct first_branch;
template <class S, class... T>
struct first_branch<type_list<S, T...>> {
  using type = S;
};
template <class Sources>
using first_branch_t = typename first_branch<Sources>::type;

/// The shape of result k (the first branch's: all branches return one structure).
template <class S>
constexpr shape branch_result_dims(int k) {
  const auto& p = materialized<S>::value;
  return p.nodes[p.outputs[static_cast<std::size_t>(k)]].dims;
}

/// Where the predicate `pred` is nonzero `a`, else `b` (ids; a symbolic zero is zeros
/// shaped like `like`).
constexpr int select_ids(graph& g, int pred, int a, int b, int like) {
  const bool_tracer taken = in_graph(g, pred) != 0.0;
  return tracer(calx::where(taken, in_graph(g, or_zeros(g, a, like)), in_graph(g, or_zeros(g, b, like)))).id;
}

/// Branch `S`'s program, expanded for the pass `E` needs (none for -1).
template <class S, int E>
constexpr const auto& program_for_pass() {
  if constexpr (E < 0)
    return materialized<S>::value;
  else
    return materialized<expanded_t<S, static_cast<expand_for>(E)>>::value;
}

template <template <class> class D, class L>
struct map_list;
template <template <class> class D, class... S>
struct map_list<D, type_list<S...>> {
  using type = type_list<D<S>...>;
};

/// The branches written out in `g`, each by `part(r, p)` on its program `r` (expanded as
/// `E` says) replayed to `p`, which gives the branch's `count` result ids; with two
/// branches, each result the first's where the predicate `in[0]` is nonzero, else the
/// second's (a select: nothing of the branch not taken reaches the values). `like[j]`
/// shapes a symbolic zero.
template <class Sources, int E, class Part>
constexpr void write_out(graph& g, const int* in, int* out, std::size_t count, const int* like, const Part& part) {
  constexpr std::size_t p = Sources::size > 1 ? 1 : 0;
  [&]<class... S>(type_list<S...>) {
    const std::vector<int> res[] = {[&] {
      const auto& r = program_for_pass<S, E>();
      return part(r, replay_all(r, g, std::vector<int>(in + p, in + p + inner_ir_t<S>::input_leaves)));
    }()...};
    for (std::size_t j = 0; j < count; ++j)
      out[j] = p == 0 ? res[0][j] : select_ids(g, in[0], res[0][j], res[p][j], like[j]);
  }(Sources{});
}

/// The rules. A user's branches: forward mode is the branch op of their jvps on (x, t),
/// reverse mode that of their vjps on (x, ct), each reading the operands, not the results
/// (a checkpoint recomputes; a cond runs the branch taken). Their derivatives' derivatives
/// (second order on) are written out by the transform passes, in place: computed (both
/// branches', selected), not rematerialized; an op per second derivative would compile
/// four more programs per branch, whether or not they run.
template <class Sources>
struct branch_rules {
  using S0 = first_branch_t<Sources>;
  static constexpr std::size_t p = Sources::size > 1 ? 1 : 0;  // the predicate's operand
  static constexpr std::size_t n = inner_ir_t<S0>::input_leaves;
  static constexpr std::size_t m = inner_ir_t<S0>::output_leaves;
  static constexpr bool first_order = branch_order_v<S0> == 0;

  static constexpr void jvp_ids(graph& g, const int* y, const int* x, const int* t, int* out) {
    if (!any_nonzero(t + p, n)) {
      for (std::size_t k = 0; k < m; ++k) out[k] = -1;
      return;
    }
    operand_list in(static_cast<int>(p + 2 * n));
    if constexpr (p == 1) in.add(x[0]);
    in.add(g, x + p, x + p, n);
    in.add(g, t + p, x + p, n);
    if constexpr (first_order) {
      int res[2 * m] = {};
      record_loop<branch_op<typename map_list<jvp_branch, Sources>::type>>(g, in.ids.data(), res, 2 * m);
      for (std::size_t k = 0; k < m; ++k) out[k] = res[m + k];
    } else {
      write_out<Sources, static_cast<int>(expand_for::jvp)>(g, in.ids.data(), out, m, y, [&](const auto& r, const std::vector<int>& q) {
        const std::vector<int> tin(in.ids.data() + p + n, in.ids.data() + p + 2 * n);
        const std::vector<int> tt = push_tangents(r, g, q, tin);
        std::vector<int> res;
        for (std::size_t o = 0; o < m; ++o) res.push_back(tt[r.outputs[o]]);
        return res;
      });
    }
  }
  static constexpr void vjp_ids(graph& g, const int* ct, const int* y, const int* x, int* out) {
    if constexpr (p == 1) out[0] = -1;  // the predicate's: none
    if (!any_nonzero(ct, m)) {
      for (std::size_t k = 0; k < n; ++k) out[p + k] = -1;
      return;
    }
    operand_list in(static_cast<int>(p + n + m));
    if constexpr (p == 1) in.add(x[0]);
    in.add(g, x + p, x + p, n);
    in.add(g, ct, y, m);
    if constexpr (first_order) {
      int res[m + n] = {};
      record_loop<branch_op<typename map_list<vjp_branch, Sources>::type>>(g, in.ids.data(), res, m + n);
      for (std::size_t k = 0; k < n; ++k) out[p + k] = res[m + k];
    } else {
      write_out<Sources, static_cast<int>(expand_for::vjp)>(g, in.ids.data(), out + p, n, x + p, [&](const auto& r, const std::vector<int>& q) {
        const std::vector<int> seed(in.ids.data() + p + n, in.ids.data() + p + n + m);
        return pull_cotangents(r, g, q, seed, std::vector<char>(n, 1));
      });
    }
  }
  /// For the SIMD loop: the branches written out (both, and a select, for a cond whose
  /// lanes may disagree).
  static constexpr void decompose_ids(graph& g, const int* x, int* out) {
    write_out<Sources, -1>(g, x, out, m, x, [](const auto& r, const std::vector<int>& q) {
      std::vector<int> res;
      for (std::size_t o = 0; o < m; ++o) res.push_back(q[r.outputs[o]]);
      return res;
    });
  }
};

/// Printed names.
template <class Sources>
inline constexpr const char* branch_op_name = "cond";
template <class S>
inline constexpr const char* branch_op_name<type_list<S>> = "checkpoint";
template <class S, class W>
inline constexpr const char* branch_op_name<type_list<jvp_source<S, W>>> = "checkpoint_jvp";
template <class S, class W, class O>
inline constexpr const char* branch_op_name<type_list<vjp_source<S, W, O, true>>> = "checkpoint_vjp";

}  // namespace detail

/// One IR node (printed `checkpoint` or `cond`, its branches nested).
template <class... S>
struct op_traits<detail::branch_op<detail::type_list<S...>>> : detail::branch_rules<detail::type_list<S...>> {
  using sources = detail::type_list<S...>;
  using S0 = detail::first_branch_t<sources>;
  static constexpr std::size_t p = sizeof...(S) > 1 ? 1 : 0;
  static constexpr const char* name = detail::branch_op_name<sources>;
  static constexpr int arity = static_cast<int>(p + detail::inner_ir_t<S0>::input_leaves);
  static constexpr int outputs = static_cast<int>(detail::inner_ir_t<S0>::output_leaves);
  static constexpr bool broadcasts = false;
  static constexpr auto result_dims = &detail::branch_result_dims<S0>;

  // Numbers: the branch taken, its program on the operands in place, its results to the
  // tuple's values (detail/exec/results_kernel.hpp, `run_branch`); SIMD groups run the
  // decomposition.
  static constexpr detail::results_kernel_info results_kernel{
      detail::results_kind::branch, 0, 0, 0, 0, false, false, static_cast<int>(sizeof...(S)),
      &detail::program_views<false, S...>, nullptr, &detail::first_refusal<S...>};

  static const char* parameters(bool single) {
    static const std::string text[2] = {programs_text(false), programs_text(true)};
    return text[single ? 1 : 0].c_str();
  }

 private:
  static std::string programs_text(bool single) {
    if constexpr (sizeof...(S) == 1)
      return detail::nested_programs_text<S...>({"body"}, single);
    else
      return detail::nested_programs_text<S...>({"true_fn", "false_fn"}, single);
  }
};

CALX_END_NAMESPACE

#endif  // CALX_DETAIL_CALL_BRANCH_OP_HPP
