/// @file detail/passes/expand.hpp
/// @brief The decompose pass: nodes whose op lacks what the next step needs are replaced by
/// the op's decomposition, repeatedly, until none is left (a decomposition may use ops that
/// have decompositions of their own). What "needs" means (`expand_for`):
/// - `jvp` / `vjp`: the op has no rule of its own for that mode, so the transform of its
///   decomposition serves as the rule;
/// - `scalar`: straight-line code on float or double runs every op with a scalar kernel;
/// - `simd`: SIMD loops run built-in kernels only; a user op's scalar kernel cannot take
///   xsimd batches, so its decomposition runs instead (the generated batching rule).
/// When nothing needs expanding, `expanded_t` is the program itself: no second IR is made.
#ifndef CALX_DETAIL_PASSES_EXPAND_HPP
#define CALX_DETAIL_PASSES_EXPAND_HPP

#include <calx/detail/internal_header_check.hpp>

#include <calx/detail/ir/graph.hpp>
#include <calx/detail/ir/ir.hpp>
#include <calx/detail/passes/autodiff.hpp>
#include <calx/detail/passes/replay.hpp>
#include <calx/tracer.hpp>

#include <cstddef>
#include <type_traits>
#include <utility>
#include <vector>

CALX_BEGIN_NAMESPACE
namespace detail {

/// One round: `r` (an IR or a graph of `n` nodes) replayed into `g` with every node that
/// needs it replaced by its decomposition; `in_ids` are the new graph's inputs.
template <class R>
constexpr std::vector<int> expand_round(const R& r, std::size_t n, graph& g, const std::vector<int>& in_ids,
                                        expand_for why) {
  std::vector<int> map(n, -1);
  tuple_parts parts(n);
  for (std::size_t j = 0; j < n; ++j) {
    const node& x = r.nodes[j];
    if (x.is_input()) {
      map[j] = in_ids[x.index()];  // whole: the new inputs have the old shapes
    } else if (x.is_get() && parts.has(static_cast<std::size_t>(r.operand(j, 0)))) {
      map[j] = parts.at(static_cast<std::size_t>(r.operand(j, 0)), x.attr[0]);
    } else if (const op_info op = x.op(); needs_expansion(op, why)) {
      id_buffer in(x.arity);
      for (int i = 0; i < x.arity; ++i) in[i] = map[r.operand(j, i)];
      if (x.kind == value_kind::tuple)
        op.decompose(g, in.data(), parts.of(j, op.outputs));
      else
        op.decompose(g, in.data(), &map[j]);
    } else {
      map[j] = replay_node(g, r, j, map, op);
    }
  }
  return map;
}

/// `Inner` with its nodes expanded for `Why`.
template <class Inner, expand_for Why>
struct expand_source {
  static constexpr graph build() {
    const auto& r = materialized<Inner>::value;
    using IR = typename materialized<Inner>::ir_type;
    graph g;
    const std::vector<int> in_ids = inputs_like(g, r, 0, IR::input_leaves);
    const std::vector<int> map = expand_round(r, IR::size, g, in_ids, Why);
    g.outputs_from(r, r.outputs, map);
    // Decompositions may use ops that need expanding too: repeat on the result.
    for (int round = 0; expansion_bit(expansions_needed(g.nodes, g.nodes.size()), Why); ++round) {
      if (round == 32)
        trace_error("calx: op decompositions nest more than 32 deep (does a decomposition use its own op?)");
      graph h;
      const std::vector<int> hin = inputs_like(h, g, 0, g.inputs.size());
      const std::vector<int> m = expand_round(g, g.nodes.size(), h, hin, Why);
      for (int o : g.outputs) h.output(o < 0 ? -1 : m[o], o < 0 ? shape{} : g.nodes[o].dims);
      g = std::move(h);
    }
    return g;
  }
};

/// Read from the program's first build (`materialized::expansions`), so that asking does
/// not make the program's `value`.
template <class Inner, expand_for Why>
constexpr bool expansion_needed() {
  return expansion_bit(materialized<Inner>::expansions, Why);
}

/// The program `Inner` ready for `Why`: itself when nothing needs expanding.
template <class Inner, expand_for Why>
using expanded_t = std::conditional_t<expansion_needed<Inner, Why>(), expand_source<Inner, Why>, Inner>;

}  // namespace detail
CALX_END_NAMESPACE

#endif // CALX_DETAIL_PASSES_EXPAND_HPP
