/// @file detail/passes/replay.hpp
/// @brief `replay`: re-emitting a finished IR into another graph, inside constant evaluation.
/// It is how a transformed function is inlined into the trace of an outer transform, and the
/// first step of every pass.
#ifndef CALX_DETAIL_PASSES_REPLAY_HPP
#define CALX_DETAIL_PASSES_REPLAY_HPP

#include <calx/detail/internal_header_check.hpp>

#include <calx/detail/ir/graph.hpp>
#include <calx/detail/ir/op_info.hpp>
#include <calx/detail/tensor/ir_ops.hpp>

#include <cstddef>
#include <vector>

CALX_BEGIN_NAMESPACE
namespace detail {

/// New inputs like inputs [first, last) of `r` (an IR or a graph: kind, batching, shape).
template <class R>
constexpr std::vector<int> inputs_like(graph& g, const R& r, std::size_t first, std::size_t last) {
  std::vector<int> v;
  v.reserve(last - first);
  for (std::size_t i = first; i < last; ++i) v.push_back(g.input_like(r.nodes[r.inputs[i]]));
  return v;
}

/// Re-emits node `j` of IR `r` into `g`, with `map` giving the ids its operands became.
/// Inputs are not replayed (the caller maps them). `op` is the node's op's description
/// (`n.op()`) where the caller has read it already: in constant evaluation each `op()`
/// copies it.
template <class IR>
constexpr int replay_node(graph& g, const IR& r, std::size_t j, const std::vector<int>& map, const op_info& op) {
  const node& n = r.nodes[j];
  if (n.is_constant()) return g.constant(n.value, n.kind);
  if (n.is_get()) return g.get(map[r.operand(j, 0)], n.attr[0]);
  id_buffer in(n.arity);
  for (int i = 0; i < n.arity; ++i) in[i] = map[r.operand(j, i)];
  if (op.sets_shape) return emit_like(g, n, in.data(), op.hash);
  return emit_op(g, n.op, op, in.data());
}
template <class IR>
constexpr int replay_node(graph& g, const IR& r, std::size_t j, const std::vector<int>& map) {
  const node& n = r.nodes[j];
  if (n.is_constant()) return g.constant(n.value, n.kind);
  if (n.is_get()) return g.get(map[r.operand(j, 0)], n.attr[0]);
  return replay_node(g, r, j, map, n.op());
}

template <class IR>
constexpr std::vector<int> replay_all(const IR& r, graph& g, const std::vector<int>& in_ids) {
  std::vector<int> map(IR::size, -1);
  for (std::size_t j = 0; j < IR::size; ++j)
    map[j] = r.nodes[j].is_input() ? in_ids[r.nodes[j].index()] : replay_node(g, r, j, map);
  return map;
}

/// Inlines IR `r` into `g`: input i reads node `in_ids[i]`; returns the output ids.
template <class IR>
constexpr std::vector<int> replay(const IR& r, graph& g, const std::vector<int>& in_ids) {
  const std::vector<int> map = replay_all(r, g, in_ids);
  std::vector<int> out(IR::output_leaves, -1);
  for (std::size_t o = 0; o < IR::output_leaves; ++o) out[o] = map[r.outputs[o]];
  return out;
}

}  // namespace detail
CALX_END_NAMESPACE

#endif // CALX_DETAIL_PASSES_REPLAY_HPP
