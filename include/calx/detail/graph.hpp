/// @file detail/graph.hpp
/// @brief The IR while it is being built: a growable, hash-consed DAG of nodes, used only
/// inside constant evaluation (C++20 constexpr std::vector).
#ifndef CALX_DETAIL_GRAPH_HPP
#define CALX_DETAIL_GRAPH_HPP

#include <calx/detail/internal_header_check.hpp>

#include <bit>
#include <cstdint>
#include <vector>

CALX_BEGIN_NAMESPACE
namespace detail {

/// What a node's value is: a real number (float or double, fixed per program) or a mask.
enum class value_kind : unsigned char { real, boolean };

/// One IR node. `op` indexes calx's op registry; `value` is a constant's value, or an
/// input node's flat argument position.
struct node {
  std::uint16_t op = 0;
  value_kind kind = value_kind::real;
  std::int32_t in[3] = {-1, -1, -1};
  double value = 0;
  bool batched = false;    // one value per sample of a runtime batch (see vmap)
  std::int32_t slot = -1;  // register slot chosen by codegen's allocator

  constexpr bool same_as(const node& o) const {
    return op == o.op && kind == o.kind && in[0] == o.in[0] && in[1] == o.in[1] &&
           in[2] == o.in[2] && batched == o.batched && std::bit_cast<std::uint64_t>(value) == std::bit_cast<std::uint64_t>(o.value);
  }
};

inline constexpr std::uint16_t input_opcode = 0;
inline constexpr std::uint16_t constant_opcode = 1;

/// A DAG under construction. `emit` merges a node with an identical earlier one (common
/// subexpression elimination as the graph grows), so sharing in the user's code and in
/// derivative rules never duplicates work.
struct graph {
  std::vector<node> nodes;
  std::vector<int> inputs;
  std::vector<int> outputs;
  std::vector<int> table;  // open-addressing hash of node ids; -1 = empty

  static constexpr std::uint64_t hash(const node& n) {
    std::uint64_t h = 1469598103934665603ull;
    auto mix = [&](std::uint64_t v) { h = (h ^ v) * 1099511628211ull; };
    mix(n.op);
    mix(static_cast<std::uint64_t>(n.kind) + (n.batched ? 2 : 0));
    for (int i : n.in) mix(static_cast<std::uint64_t>(static_cast<std::int64_t>(i)));
    mix(std::bit_cast<std::uint64_t>(n.value));
    return h ^ (h >> 29);
  }

  constexpr void rehash() {
    table.assign(table.empty() ? 64 : table.size() * 2, -1);
    for (int id = 0; id < static_cast<int>(nodes.size()); ++id)
      if (nodes[id].op != input_opcode) place(id);
  }
  constexpr void place(int id) {
    std::size_t mask = table.size() - 1, i = hash(nodes[id]) & mask;
    while (table[i] != -1) i = (i + 1) & mask;
    table[i] = id;
  }

  /// The id of a node equal to `n`, adding it if there is none.
  constexpr int emit(const node& n) {
    if (2 * (nodes.size() + 1) > table.size()) rehash();
    std::size_t mask = table.size() - 1, i = hash(n) & mask;
    for (; table[i] != -1; i = (i + 1) & mask)
      if (nodes[table[i]].same_as(n)) return table[i];
    nodes.push_back(n);
    table[i] = static_cast<int>(nodes.size()) - 1;
    return table[i];
  }

  /// A new input node for flat argument position `inputs.size()`; `batched`: one value
  /// per sample of a runtime batch.
  constexpr int input(value_kind kind = value_kind::real, bool batched = false) {
    node n;
    n.op = input_opcode;
    n.kind = kind;
    n.batched = batched;
    n.value = static_cast<double>(inputs.size());
    nodes.push_back(n);
    inputs.push_back(static_cast<int>(nodes.size()) - 1);
    return inputs.back();
  }

  constexpr int constant(double v, value_kind kind = value_kind::real) {
    node n;
    n.op = constant_opcode;
    n.kind = kind;
    n.value = v;
    return emit(n);
  }

  constexpr bool is_batched(int id) const { return id >= 0 && nodes[id].batched; }
  constexpr bool is_constant(int id) const { return id >= 0 && nodes[id].op == constant_opcode; }
  constexpr bool is_constant(int id, double v) const { return is_constant(id) && nodes[id].value == v; }
  /// Whether `id` is the constant with exactly the bits of `v` (tells -0.0 from +0.0).
  constexpr bool is_constant_bits(int id, double v) const {
    return is_constant(id) && std::bit_cast<std::uint64_t>(nodes[id].value) == std::bit_cast<std::uint64_t>(v);
  }
};

}  // namespace detail
CALX_END_NAMESPACE

#endif // CALX_DETAIL_GRAPH_HPP
