/// @file detail/replay.hpp
/// @brief Walking an IR inside constant evaluation: dispatch from a node's opcode to its
/// op type, and `replay`, which re-emits a finished IR into another graph (how a
/// transformed function is inlined into the trace of an outer transform).
#ifndef CALX_DETAIL_REPLAY_HPP
#define CALX_DETAIL_REPLAY_HPP

#include <calx/detail/internal_header_check.hpp>

#include <calx/detail/all_ops.hpp>
#include <calx/detail/graph.hpp>
#include <calx/detail/type_list.hpp>
#include <calx/op_traits.hpp>
#include <calx/tracer.hpp>

#include <cstdint>
#include <utility>
#include <vector>

CALX_BEGIN_NAMESPACE
namespace detail {

/// Calls `fn(type_identity<Op>{})` for the op whose opcode is `code`.
template <class Fn>
constexpr void visit_op(std::uint16_t code, Fn&& fn) {
  [&]<std::size_t... I>(std::index_sequence<I...>) {
    (void)((code == I ? (fn(type_identity<op_at_t<I>>{}), true) : false) || ...);
  }(std::make_index_sequence<op_registry::size>{});
}

/// The traced value for operand `I` of `Op` given its node id (masks for where's predicate).
template <class Op, int I>
constexpr auto operand(graph& g, int id) {
  if constexpr (std::is_same_v<Op, where_op> && I == 0)
    return bool_tracer{&g, id};
  else
    return tracer{id < 0 ? nullptr : &g, id};
}

template <class Op, int I>
using operand_t = decltype(operand<Op, I>(std::declval<graph&>(), 0));

template <class Op, class Seq = std::make_integer_sequence<int, op_traits<Op>::arity>>
struct rule_probe;
template <class Op, int... I>
struct rule_probe<Op, std::integer_sequence<int, I...>> {
  static constexpr bool jvp = requires(const tracer& t) {
    op_traits<Op>::jvp(t, std::declval<const operand_t<Op, I>&>()..., ((void)I, t)...);
  };
  static constexpr bool vjp = requires(const tracer& t) {
    op_traits<Op>::vjp(t, t, std::declval<const operand_t<Op, I>&>()...);
  };
};

}  // namespace detail

/// The op has a forward-mode rule `op_traits<Op>::jvp(y, x..., t...)`.
template <class Op>
concept has_jvp_rule = primitive<Op> && detail::rule_probe<Op>::jvp;

/// The op has a reverse-mode rule `op_traits<Op>::vjp(ct, y, x...)`.
template <class Op>
concept has_vjp_rule = primitive<Op> && detail::rule_probe<Op>::vjp;

namespace detail {

/// Emits `Op` on operand ids into `g`; returns the result id (-1: symbolic zero).
template <class Op>
constexpr int emit_ids(graph& g, const int* in) {
  return [&]<int... I>(std::integer_sequence<int, I...>) {
    return emit<Op>(operand<Op, I>(g, in[I])...).id;
  }(std::make_integer_sequence<int, op_traits<Op>::arity>{});
}

/// Re-emits node `n` of another IR into `g`, with `map` giving the ids its inputs became.
template <class Nodes>
constexpr int replay_node(graph& g, const Nodes& nodes, int j, const std::vector<int>& map) {
  const node& n = nodes[j];
  if (n.op == constant_opcode) return g.constant(n.value, n.kind);
  int in[3] = {-1, -1, -1};
  for (int i = 0; i < 3; ++i)
    if (n.in[i] >= 0) in[i] = map[n.in[i]];
  int out = -1;
  visit_op(n.op, [&]<class Op>(type_identity<Op>) {
    if constexpr (op_traits<Op>::arity > 0) out = emit_ids<Op>(g, in);
  });
  return out;
}

/// Re-emits every node of IR `r` into `g`, input i reading node `in_ids[i]`; returns the id
/// each node became.
template <class IR>
constexpr std::vector<int> replay_all(const IR& r, graph& g, const std::vector<int>& in_ids) {
  std::vector<int> map(IR::size, -1);
  for (std::size_t j = 0; j < IR::size; ++j)
    map[j] = r.nodes[j].op == input_opcode ? in_ids[static_cast<std::size_t>(r.nodes[j].value)]
                                           : replay_node(g, r.nodes, static_cast<int>(j), map);
  return map;
}

/// Inlines IR `r` into `g`: input i reads node `in_ids[i]`; returns the output ids.
template <class IR>
constexpr std::vector<int> replay(const IR& r, graph& g, const std::vector<int>& in_ids) {
  const std::vector<int> map = replay_all(r, g, in_ids);
  std::vector<int> out(IR::output_count, -1);
  for (std::size_t o = 0; o < IR::output_count; ++o) out[o] = map[r.outputs[o]];
  return out;
}

}  // namespace detail
CALX_END_NAMESPACE

#endif // CALX_DETAIL_REPLAY_HPP
