/// @file detail/passes/autodiff.hpp
/// @brief The differentiation passes, run inside constant evaluation on a finished IR `r`
/// while building a new graph `g`:
/// - `push_tangents`: forward mode, a tangent id per node from tangents of the inputs;
/// - `pull_cotangents`: reverse mode, cotangents of the inputs from seeds on the outputs;
/// - `known_nodes`, `late_needs`, `residual_nodes`: partial evaluation (vjp's pullback,
///   linearize's linear map).
/// Tangents and cotangents known to be zero are symbolic (id -1, no node); rules are
/// called only where something nonzero flows, and `finalize` drops what is unused. Each
/// rule is reached through the node's `op_info`, so the passes know no op by name; an op
/// whose rule comes from its decomposition has been expanded before (detail/passes/expand.hpp).
#ifndef CALX_DETAIL_PASSES_AUTODIFF_HPP
#define CALX_DETAIL_PASSES_AUTODIFF_HPP

#include <calx/detail/internal_header_check.hpp>

#include <calx/detail/ir/graph.hpp>
#include <calx/detail/passes/replay.hpp>
#include <calx/ops/arithmetic.hpp>
#include <calx/ops/reduction.hpp>
#include <calx/tracer.hpp>

#include <cstddef>
#include <vector>

CALX_BEGIN_NAMESPACE
namespace detail {

/// Per-result values of the tuple nodes of an IR: `first[j]` indexes `ids` (-1: none yet).
struct tuple_parts {
  std::vector<int> first;
  std::vector<int> ids;
  constexpr explicit tuple_parts(std::size_t n) : first(n, -1) {}
  constexpr int* of(std::size_t j, int count) {
    if (first[j] < 0) {
      first[j] = static_cast<int>(ids.size());
      for (int k = 0; k < count; ++k) ids.push_back(-1);
    }
    return ids.data() + first[j];
  }
  constexpr bool has(std::size_t j) const { return first[j] >= 0; }
  constexpr int at(std::size_t j, int k) const { return ids[static_cast<std::size_t>(first[j] + k)]; }
};

/// The results of node `j` as ids of `g`: the node itself, or the gets of a tuple node.
template <class IR>
constexpr void results_of(const IR& r, graph& g, std::size_t j, int p, int* y) {
  if (r.nodes[j].kind == value_kind::tuple)
    for (int k = 0; k < r.nodes[j].op().outputs; ++k) y[k] = g.get(p, k);
  else
    y[0] = p;
}

/// Forward mode: `tin[i]` is the tangent of input i, of its shape (-1: zero).
template <class IR>
constexpr std::vector<int> push_tangents(const IR& r, graph& g, const std::vector<int>& p,
                                         const std::vector<int>& tin) {
  std::vector<int> t(IR::size, -1);
  tuple_parts parts(IR::size);
  for (std::size_t j = 0; j < IR::size; ++j) {
    const node& n = r.nodes[j];
    if (n.is_input()) {
      t[j] = tin[n.index()];
      continue;
    }
    if (n.is_constant() || n.kind == value_kind::boolean) continue;
    if (n.is_get()) {
      const auto s = static_cast<std::size_t>(r.operand(j, 0));
      if (parts.has(s)) t[j] = parts.at(s, n.attr[0]);
      continue;
    }
    bool any = false;
    for (int i = 0; i < n.arity; ++i) any = any || t[r.operand(j, i)] >= 0;
    if (!any) continue;
    const op_info op = n.op();
    if (op.jvp_from == rule_source::missing) {  // reported by the transform, naming the op
      if (g.missing_rule == nullptr) g.missing_rule = n.op;
      continue;
    }
    id_buffer x(n.arity), tx(n.arity), y(op.outputs);
    for (int i = 0; i < n.arity; ++i) {
      x[i] = p[r.operand(j, i)];
      tx[i] = t[r.operand(j, i)];
    }
    results_of(r, g, j, p[j], y.data());
    if (n.kind == value_kind::tuple)
      op.jvp(g, y.data(), x.data(), tx.data(), parts.of(j, op.outputs));
    else
      op.jvp(g, y.data(), x.data(), tx.data(), &t[j]);
  }
  return t;
}

/// Reverse mode: `seed[o]` is the cotangent of output o, of its shape (-1: zero); returns
/// the cotangent of each input with `wrt[i]` set (-1: zero). Only nodes that depend on a `wrt`
/// input receive cotangents.
template <class IR, class Mask>
constexpr std::vector<int> pull_cotangents(const IR& r, graph& g, const std::vector<int>& p,
                                           const std::vector<int>& seed, const Mask& wrt) {
  std::vector<char> active(IR::size, 0);
  for (std::size_t j = 0; j < IR::size; ++j) {
    const node& n = r.nodes[j];
    if (n.is_input())
      active[j] = wrt[n.index()] ? 1 : 0;
    else if (n.kind != value_kind::boolean)
      for (int i = 0; i < n.arity; ++i)
        if (active[r.operand(j, i)]) active[j] = 1;
  }
  std::vector<int> ct(IR::size, -1);
  tuple_parts parts(IR::size);
  // Adds cotangent `c` into `*slot`, the cotangent of node `at`.
  auto add_into = [&](int& slot, int at, tracer c) {
    if (!active[at] || c.is_zero()) return;
    // A per-sample cotangent reaching an unbatched value sums over the batch (the
    // transpose of broadcasting that value to every sample).
    if (g.is_batched(c.id) && !g.is_batched(p[at])) c = emit<batch_sum_op>(c);
    slot = slot < 0 ? c.id : (in_graph(g, slot) + c).id;
  };
  for (std::size_t o = 0; o < IR::output_leaves; ++o) add_into(ct[r.outputs[o]], r.outputs[o], in_graph(g, seed[o]));
  for (std::size_t jj = IR::size; jj-- > 0;) {
    const node& n = r.nodes[jj];
    if (n.is_input() || n.is_constant() || n.kind == value_kind::boolean) continue;
    if (n.is_get()) {
      const int s = r.operand(jj, 0);
      if (ct[jj] >= 0 && active[s])
        add_into(parts.of(static_cast<std::size_t>(s), r.nodes[s].op().outputs)[n.attr[0]], s,
                 in_graph(g, ct[jj]));
      continue;
    }
    const int* cts = &ct[jj];
    if (n.kind == value_kind::tuple) {
      if (!parts.has(jj)) continue;
      cts = parts.of(jj, n.op().outputs);
    } else if (ct[jj] < 0) {
      continue;
    }
    const op_info op = n.op();
    if (op.vjp_from == rule_source::missing) {  // reported by the transform, naming the op
      if (g.missing_rule == nullptr) {
        g.missing_rule = n.op;
        g.missing_in_reverse = true;
      }
      continue;
    }
    id_buffer x(n.arity), y(op.outputs), out(n.arity);
    for (int i = 0; i < n.arity; ++i) x[i] = p[r.operand(jj, i)];
    results_of(r, g, jj, p[jj], y.data());
    op.vjp(g, cts, y.data(), x.data(), out.data());
    for (int i = 0; i < n.arity; ++i)
      if (!op.is_mask_operand(i)) add_into(ct[r.operand(jj, i)], r.operand(jj, i), in_graph(g, out[i]));
  }
  std::vector<int> out(IR::input_leaves, -1);
  for (std::size_t i = 0; i < IR::input_leaves; ++i)
    if (wrt[i]) out[i] = ct[r.inputs[i]];
  return out;
}

/// Partial evaluation: with the first `known` inputs known, which nodes can be computed
/// before the rest arrive.
template <class IR>
constexpr std::vector<char> known_nodes(const IR& r, std::size_t known) {
  std::vector<char> k(IR::size, 1);
  for (std::size_t j = 0; j < IR::size; ++j) {
    const node& n = r.nodes[j];
    if (n.is_input())
      k[j] = n.index() < known ? 1 : 0;
    else
      for (int i = 0; i < n.arity; ++i)
        if (!k[r.operand(j, i)]) k[j] = 0;
  }
  return k;
}

/// What the late part needs of the known nodes: 1 = a residual (a real value, or a tuple
/// node's values: a scan's kept carries, stored once, as JAX's pullbacks store them),
/// 2 = recomputed in the late part (masks, which are not passed as values; their operands
/// become residuals instead).
template <class IR>
constexpr std::vector<char> late_needs(const IR& r, std::size_t known, std::size_t first_late_output) {
  const std::vector<char> k = known_nodes(r, known);
  std::vector<char> needed(IR::size, 0);
  for (std::size_t j = 0; j < IR::size; ++j)
    if (!k[j])
      for (int i = 0; i < r.nodes[j].arity; ++i)
        if (k[r.operand(j, i)]) needed[r.operand(j, i)] = 1;
  for (std::size_t o = first_late_output; o < IR::output_leaves; ++o)
    if (k[r.outputs[o]]) needed[r.outputs[o]] = 1;
  for (std::size_t j = IR::size; j-- > 0;)
    if (needed[j] && r.nodes[j].kind == value_kind::boolean && !r.nodes[j].is_constant()) {
      needed[j] = 2;
      for (int i = 0; i < r.nodes[j].arity; ++i)
        if (!needed[r.operand(j, i)]) needed[r.operand(j, i)] = 1;
    }
  for (std::size_t j = 0; j < IR::size; ++j)
    if (needed[j] == 1 && r.nodes[j].is_constant()) needed[j] = 0;
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

#endif // CALX_DETAIL_PASSES_AUTODIFF_HPP
