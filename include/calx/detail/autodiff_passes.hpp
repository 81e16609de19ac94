/// @file detail/autodiff_passes.hpp
/// @brief The differentiation passes, run inside constant evaluation on a finished IR `r`
/// while building a new graph `g`:
/// - `replay_all`: the primal nodes of `r` in `g` (ids per node of `r`);
/// - `push_tangents`: forward mode, a tangent id per node from tangents of the inputs;
/// - `pull_cotangents`: reverse mode, cotangents of the inputs from seeds on the outputs.
/// Tangents and cotangents known to be zero are symbolic (id -1, no node); rules are
/// called only where something nonzero flows, and `finalize` drops what is unused.
#ifndef CALX_DETAIL_AUTODIFF_PASSES_HPP
#define CALX_DETAIL_AUTODIFF_PASSES_HPP

#include <calx/detail/internal_header_check.hpp>

#include <calx/detail/diagnostics.hpp>
#include <calx/detail/graph.hpp>
#include <calx/detail/replay.hpp>
#include <calx/op_traits.hpp>
#include <calx/tracer.hpp>

#include <vector>

CALX_BEGIN_NAMESPACE
namespace detail {

constexpr tracer in_graph(graph& g, int id) { return tracer{id < 0 ? nullptr : &g, id}; }

/// Forward mode: `tin[i]` is the tangent of flat input i (-1: zero).
template <class IR>
constexpr std::vector<int> push_tangents(const IR& r, graph& g, const std::vector<int>& p,
                                         const std::vector<int>& tin) {
  std::vector<int> t(IR::size, -1);
  for (std::size_t j = 0; j < IR::size; ++j) {
    const node& n = r.nodes[j];
    if (n.op == input_opcode) {
      t[j] = tin[static_cast<std::size_t>(n.value)];
      continue;
    }
    if (n.op == constant_opcode || n.kind == value_kind::boolean) continue;
    bool any = false;
    for (int a : n.in)
      if (a >= 0 && t[a] >= 0) any = true;
    if (!any) continue;
    visit_op(n.op, [&]<class Op>(type_identity<Op>) {
      if constexpr (op_traits<Op>::arity > 0 && op_traits<Op>::result == value_kind::real) {
        static_assert(has_jvp_rule<Op>, CALX_MSG_NO_JVP_RULE);
        t[j] = [&]<int... I>(std::integer_sequence<int, I...>) {
          return op_traits<Op>::jvp(in_graph(g, p[j]), operand<Op, I>(g, p[n.in[I]])...,
                                    in_graph(g, t[n.in[I]])...)
              .id;
        }(std::make_integer_sequence<int, op_traits<Op>::arity>{});
      }
    });
  }
  return t;
}

/// Reverse mode: `seed[o]` is the cotangent of output o (-1: zero); returns the cotangent
/// of each flat input with `wrt[i]` set (-1: zero). Only nodes that depend on a `wrt`
/// input receive cotangents.
template <class IR, class Mask>
constexpr std::vector<int> pull_cotangents(const IR& r, graph& g, const std::vector<int>& p,
                                           const std::vector<int>& seed, const Mask& wrt) {
  std::vector<char> active(IR::size, 0);
  for (std::size_t j = 0; j < IR::size; ++j) {
    const node& n = r.nodes[j];
    if (n.op == input_opcode)
      active[j] = wrt[static_cast<std::size_t>(n.value)] ? 1 : 0;
    else if (n.kind == value_kind::real)
      for (int a : n.in)
        if (a >= 0 && active[a]) active[j] = 1;
  }
  std::vector<int> ct(IR::size, -1);
  auto p_batched = [&](int at) { return g.is_batched(p[at]); };
  auto accumulate = [&](int at, tracer c) {
    if (!active[at] || c.is_zero()) return;
    // A per-sample cotangent reaching an unbatched value sums over the batch (the
    // transpose of broadcasting that value to every sample).
    if (g.is_batched(c.id) && !p_batched(at)) c = emit<batch_sum_op>(c);
    ct[at] = ct[at] < 0 ? c.id : (in_graph(g, ct[at]) + c).id;
  };
  for (std::size_t o = 0; o < IR::output_count; ++o) accumulate(r.outputs[o], in_graph(g, seed[o]));
  for (std::size_t jj = IR::size; jj-- > 0;) {
    const node& n = r.nodes[jj];
    if (ct[jj] < 0 || n.op == input_opcode || n.kind == value_kind::boolean) continue;
    visit_op(n.op, [&]<class Op>(type_identity<Op>) {
      if constexpr (op_traits<Op>::arity > 0 && op_traits<Op>::result == value_kind::real) {
        static_assert(has_vjp_rule<Op>, CALX_MSG_NO_VJP_RULE);
        const auto cts = [&]<int... I>(std::integer_sequence<int, I...>) {
          return op_traits<Op>::vjp(in_graph(g, ct[jj]), in_graph(g, p[jj]), operand<Op, I>(g, p[n.in[I]])...);
        }(std::make_integer_sequence<int, op_traits<Op>::arity>{});
        for (int i = 0; i < op_traits<Op>::arity; ++i) accumulate(n.in[i], cts[i]);
      }
    });
  }
  std::vector<int> out(IR::input_count, -1);
  for (std::size_t i = 0; i < IR::input_count; ++i)
    if (wrt[i]) out[i] = ct[r.inputs[i]];
  return out;
}

/// Partial evaluation: with the first `known` inputs known, which nodes can be computed
/// before the rest arrive, and which of those the rest needs (the residuals).
template <class IR>
constexpr std::vector<char> known_nodes(const IR& r, std::size_t known) {
  std::vector<char> k(IR::size, 1);
  for (std::size_t j = 0; j < IR::size; ++j) {
    const node& n = r.nodes[j];
    if (n.op == input_opcode)
      k[j] = static_cast<std::size_t>(n.value) < known ? 1 : 0;
    else
      for (int a : n.in)
        if (a >= 0 && !k[a]) k[j] = 0;
  }
  return k;
}

/// What the late part needs of the known nodes: 1 = a residual (a real value passed
/// over), 2 = recomputed in the late part (masks, which are not passed as values; their
/// operands become residuals instead).
template <class IR>
constexpr std::vector<char> late_needs(const IR& r, std::size_t known, std::size_t first_late_output) {
  const std::vector<char> k = known_nodes(r, known);
  std::vector<char> needed(IR::size, 0);
  for (std::size_t j = 0; j < IR::size; ++j)
    if (!k[j])
      for (int a : r.nodes[j].in)
        if (a >= 0 && k[a]) needed[a] = 1;
  for (std::size_t o = first_late_output; o < IR::output_count; ++o)
    if (k[r.outputs[o]]) needed[r.outputs[o]] = 1;
  for (std::size_t j = IR::size; j-- > 0;)
    if (needed[j] && r.nodes[j].kind == value_kind::boolean && r.nodes[j].op != constant_opcode) {
      needed[j] = 2;
      for (int a : r.nodes[j].in)
        if (a >= 0 && !needed[a]) needed[a] = 1;
    }
  for (std::size_t j = 0; j < IR::size; ++j)
    if (needed[j] == 1 && r.nodes[j].op == constant_opcode) needed[j] = 0;
  return needed;
}

/// The residuals, in node order.
template <class IR>
constexpr std::vector<int> residual_nodes(const IR& r, std::size_t known, std::size_t first_late_output) {
  const std::vector<char> needed = late_needs(r, known, first_late_output);
  std::vector<int> res;
  for (std::size_t j = 0; j < IR::size; ++j)
    if (needed[j] == 1) res.push_back(static_cast<int>(j));
  return res;
}

}  // namespace detail
CALX_END_NAMESPACE

#endif // CALX_DETAIL_AUTODIFF_PASSES_HPP
