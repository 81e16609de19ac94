/// @file detail/ir.hpp
/// @brief The finished IR: a fixed-size constexpr array of nodes, produced from a graph
/// builder by `finalize` (dead-node elimination, compaction) and a register allocator.
#ifndef CALX_DETAIL_IR_HPP
#define CALX_DETAIL_IR_HPP

#include <calx/detail/internal_header_check.hpp>

#include <calx/detail/graph.hpp>

#include <array>
#include <cstddef>
#include <vector>

CALX_BEGIN_NAMESPACE
namespace detail {

/// A program's IR. Nodes are in topological order; `inputs[i]` is the node of flat input
/// i, `outputs[o]` the node of flat output o. `slot` is each node's register in codegen.
template <std::size_t N, std::size_t NI, std::size_t NO>
struct ir {
  std::array<node, N> nodes{};
  std::array<int, NI> inputs{};
  std::array<int, NO> outputs{};
  int real_slots = 0;
  int bool_slots = 0;
  static constexpr std::size_t size = N;
  static constexpr std::size_t input_count = NI;
  static constexpr std::size_t output_count = NO;
};

/// Symbolic-zero outputs become constant 0; nodes no output reaches are dropped (inputs
/// stay: they are the signature); ids are renumbered in order.
constexpr void finalize(graph& g) {
  for (int& o : g.outputs)
    if (o < 0) o = g.constant(0.0);
  const int n = static_cast<int>(g.nodes.size());
  std::vector<char> live(n, 0);
  for (int o : g.outputs) live[o] = 1;
  for (int i : g.inputs) live[i] = 1;
  for (int j = n - 1; j >= 0; --j)
    if (live[j])
      for (int a : g.nodes[j].in)
        if (a >= 0) live[a] = 1;
  std::vector<int> remap(n, -1);
  std::vector<node> kept;
  for (int j = 0; j < n; ++j)
    if (live[j]) {
      node m = g.nodes[j];
      for (int& a : m.in)
        if (a >= 0) a = remap[a];
      remap[j] = static_cast<int>(kept.size());
      kept.push_back(m);
    }
  g.nodes = kept;
  for (int& i : g.inputs) i = remap[i];
  for (int& o : g.outputs) o = remap[o];
  g.table.clear();
}

/// Gives each node a register slot, reusing a slot once its last reader has run, so
/// codegen's value arrays hold the live values only. Reals and masks have separate slots.
template <std::size_t N, std::size_t NI, std::size_t NO>
constexpr void allocate_slots(ir<N, NI, NO>& r) {
  std::array<int, N == 0 ? 1 : N> last_use{};
  for (std::size_t j = 0; j < N; ++j) last_use[j] = static_cast<int>(j);
  for (std::size_t j = 0; j < N; ++j)
    for (int a : r.nodes[j].in)
      if (a >= 0) last_use[a] = static_cast<int>(j);
  for (int o : r.outputs) last_use[o] = static_cast<int>(N);
  std::vector<int> free_real, free_bool;
  int next[2] = {0, 0};
  for (std::size_t j = 0; j < N; ++j) {
    node& n = r.nodes[j];
    const int k = n.kind == value_kind::boolean ? 1 : 0;
    std::vector<int>& pool = k ? free_bool : free_real;
    if (pool.empty()) {
      n.slot = next[k]++;
    } else {
      n.slot = pool.back();
      pool.pop_back();
    }
    for (int i = 0; i < 3; ++i) {  // free inputs whose last reader is this node (once each)
      const int a = n.in[i];
      if (a < 0 || last_use[a] != static_cast<int>(j)) continue;
      bool seen = false;
      for (int p = 0; p < i; ++p) seen = seen || n.in[p] == a;
      if (!seen) (r.nodes[a].kind == value_kind::boolean ? free_bool : free_real).push_back(r.nodes[a].slot);
    }
    if (last_use[j] == static_cast<int>(j)) pool.push_back(n.slot);  // never read
  }
  r.real_slots = next[0];
  r.bool_slots = next[1];
}

/// The IR of `Source::build()` as a constant: one constexpr run to size it, one to fill it.
template <class Source>
struct materialized {
  static constexpr std::array<std::size_t, 3> sizes = [] {
    graph g = Source::build();
    finalize(g);
    return std::array<std::size_t, 3>{g.nodes.size(), g.inputs.size(), g.outputs.size()};
  }();
  using ir_type = ir<sizes[0], sizes[1], sizes[2]>;
  static constexpr ir_type value = [] {
    graph g = Source::build();
    finalize(g);
    ir_type r;
    for (std::size_t j = 0; j < sizes[0]; ++j) r.nodes[j] = g.nodes[j];
    for (std::size_t i = 0; i < sizes[1]; ++i) r.inputs[i] = g.inputs[i];
    for (std::size_t o = 0; o < sizes[2]; ++o) r.outputs[o] = g.outputs[o];
    allocate_slots(r);
    return r;
  }();
};

}  // namespace detail
CALX_END_NAMESPACE

#endif // CALX_DETAIL_IR_HPP
