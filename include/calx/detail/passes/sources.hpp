/// @file detail/passes/sources.hpp
/// @brief The programs transforms derive, as types: each has `static constexpr graph
/// build()` over the materialized IR of an inner program, so a composition such as
/// grad(grad(f)) is a chain of types, each IR computed once at compile time.
///
/// `Wrt::ranges` lists the flat input positions to differentiate with respect to (in the
/// order results are returned), `Outs::ranges` the flat output positions, each range covering
/// whole values (a scalar or a tensor): a spec has one entry per argument, not per element.
#ifndef CALX_DETAIL_PASSES_SOURCES_HPP
#define CALX_DETAIL_PASSES_SOURCES_HPP

#include <calx/detail/internal_header_check.hpp>

#include <calx/detail/ir/graph.hpp>
#include <calx/detail/ir/ir.hpp>
#include <calx/detail/passes/autodiff.hpp>
#include <calx/detail/passes/expand.hpp>

#include <array>
#include <cstddef>
#include <vector>

CALX_BEGIN_NAMESPACE
namespace detail {

/// Flat positions `B, B+1, ..., E-1`.
template <std::size_t B, std::size_t E>
struct range_spec {
  static constexpr std::array<flat_range, 1> ranges{flat_range{B, E - B}};
};

/// The values (positions in a list of inputs or outputs with flat offsets `offset`, `n`
/// values) that the ranges of `Spec` cover, in order.
template <class Spec, class Offsets>
constexpr std::vector<int> values_in(const Offsets& offset, std::size_t n) {
  std::vector<int> v;
  for (const flat_range rg : Spec::ranges) {
    if (rg.count == 0) continue;
    std::size_t k = 0;
    while (k < n && offset[k] < rg.first) ++k;
    if (offset[k] != rg.first) trace_error("calx internal: a flat range starts inside a value");
    for (; k < n && offset[k] < rg.first + rg.count; ++k) v.push_back(static_cast<int>(k));
    if (offset[k] != rg.first + rg.count) trace_error("calx internal: a flat range ends inside a value");
  }
  return v;
}

/// The inputs of `r` that `Spec` covers, as a mask over the inputs.
template <class Spec, class IR>
constexpr std::vector<char> input_mask(const IR& r) {
  std::vector<char> m(IR::input_leaves, 0);
  for (int k : values_in<Spec>(r.input_offset, IR::input_leaves)) m[static_cast<std::size_t>(k)] = 1;
  return m;
}

/// The value a flat position count `flat` ends at: how many of the values with offsets
/// `offset` lie before it.
template <class Offsets>
constexpr std::size_t values_before(const Offsets& offset, std::size_t n, std::size_t flat) {
  std::size_t k = 0;
  while (k < n && offset[k] < flat) ++k;
  if (offset[k] != flat) trace_error("calx internal: a flat count ends inside a value");
  return k;
}

template <class Inner>
using inner_ir_t = typename materialized<Inner>::ir_type;

/// New inputs for all inputs of `r`.
template <class IR>
constexpr std::vector<int> inputs_like(graph& g, const IR& r) {
  return inputs_like(g, r, 0, IR::input_leaves);
}

/// The batch pass: `Inner` with the flat inputs in `Batched` given one value per sample.
/// Elementwise ops need no batching rule: replaying marks every node that depends on a
/// batched input as batched, and the executor maps it over the batch.
template <class Inner, class Batched>
struct batch_source {
  static constexpr graph build() {
    using IR = inner_ir_t<Inner>;
    const auto& r = materialized<Inner>::value;
    graph g;
    const std::vector<char> batched = input_mask<Batched>(r);
    std::vector<int> pin;
    pin.reserve(IR::input_leaves);
    for (std::size_t i = 0; i < IR::input_leaves; ++i)
      pin.push_back(g.input(value_kind::real, batched[i] != 0, r.nodes[r.inputs[i]].dims));
    const std::vector<int> p = replay_all(r, g, pin);
    g.outputs_from(r, r.outputs, p);
    return g;
  }
};

/// Inputs (x, t[Wrt]) -> (f(x), tangents of f(x)). Ops without a jvp rule of their own are
/// expanded into their decompositions first.
template <class Inner0, class Wrt>
struct jvp_source {
  using Inner = expanded_t<Inner0, expand_for::jvp>;
  static constexpr graph build() {
    using IR = inner_ir_t<Inner>;
    const auto& r = materialized<Inner>::value;
    graph g;
    const std::vector<int> pin = inputs_like(g, r);
    std::vector<int> tin(IR::input_leaves, -1);
    for (int k : values_in<Wrt>(r.input_offset, IR::input_leaves)) tin[k] = g.input_like(r.nodes[r.inputs[k]]);
    const std::vector<int> p = replay_all(r, g, pin);
    const std::vector<int> t = push_tangents(r, g, p, tin);
    g.outputs_from(r, r.outputs, p);
    g.outputs_from(r, r.outputs, t);
    return g;
  }
};

/// Inputs (x[, ct[Outs]]) -> (f(x), cotangents of x[Wrt]). Without cotangent inputs every
/// output in `Outs` is seeded with 1: the gradient of a scalar output. Ops without a vjp
/// rule of their own are expanded into their decompositions first. Without `Values` the
/// outputs are the cotangents only, so what only the value needs (a loss's last reduction)
/// is not computed: `grad` on numbers.
template <class Inner0, class Wrt, class Outs, bool CotangentInputs, bool Values = true>
struct vjp_source {
  using Inner = expanded_t<Inner0, expand_for::vjp>;
  static constexpr graph build() {
    using IR = inner_ir_t<Inner>;
    const auto& r = materialized<Inner>::value;
    graph g;
    const std::vector<int> pin = inputs_like(g, r);
    std::vector<int> seed(IR::output_leaves, -1);
    for (int o : values_in<Outs>(r.output_offset, IR::output_leaves)) {
      const node& n = r.nodes[r.outputs[o]];
      seed[o] = CotangentInputs ? g.input_like(n) : broadcast_to(g, g.constant(1.0), n.dims);
    }
    const std::vector<int> p = replay_all(r, g, pin);
    const std::vector<int> ct = pull_cotangents(r, g, p, seed, input_mask<Wrt>(r));
    if constexpr (Values) g.outputs_from(r, r.outputs, p);
    for (int k : values_in<Wrt>(r.input_offset, IR::input_leaves)) g.output(ct[k], r.nodes[r.inputs[k]].dims);
    return g;
  }
};

/// Partial evaluation of `Inner` whose first `K` inputs are known now and the rest later.
/// `known_source`: (known inputs) -> (outputs [0, KO), residuals).
/// `late_source`: (residuals, late inputs) -> (outputs [KO, end)).
/// A vjp's pullback and linearize's linear map are the late part: calling them reuses the
/// residuals and recomputes nothing of the primal.
template <class Inner, std::size_t K, std::size_t KO>
struct known_source {
  static constexpr graph build() {
    using IR = inner_ir_t<Inner>;
    const auto& r = materialized<Inner>::value;
    const std::size_t ki = values_before(r.input_offset, IR::input_leaves, K);
    const std::size_t ko = values_before(r.output_offset, IR::output_leaves, KO);
    const std::vector<char> k = known_nodes(r, ki);
    graph g;
    const std::vector<int> pin = inputs_like(g, r, 0, ki);
    std::vector<int> map(IR::size, -1);
    for (std::size_t j = 0; j < IR::size; ++j) {
      if (!k[j]) continue;
      const node& n = r.nodes[j];
      map[j] = n.is_input() ? pin[n.index()] : replay_node(g, r, j, map);
    }
    for (std::size_t o = 0; o < ko; ++o) {
      if (!k[r.outputs[o]]) trace_error("calx internal: an early output depends on late inputs");
      g.output(map[r.outputs[o]], r.nodes[r.outputs[o]].dims);
    }
    for (int j : residual_nodes(r, ki, ko)) g.output(map[j], r.nodes[j].dims);
    return g;
  }
};

template <class Inner, std::size_t K, std::size_t KO>
struct late_source {
  static constexpr graph build() {
    using IR = inner_ir_t<Inner>;
    const auto& r = materialized<Inner>::value;
    const std::size_t ki = values_before(r.input_offset, IR::input_leaves, K);
    const std::size_t ko = values_before(r.output_offset, IR::output_leaves, KO);
    const std::vector<char> k = known_nodes(r, ki);
    const std::vector<char> needs = late_needs(r, ki, ko);
    graph g;
    std::vector<int> map(IR::size, -1);
    for (int j : residual_nodes(r, ki, ko)) map[j] = g.input_like(r.nodes[j]);
    const std::vector<int> late = inputs_like(g, r, ki, IR::input_leaves);
    for (std::size_t j = 0; j < IR::size; ++j) {
      const node& n = r.nodes[j];
      if (n.is_constant())
        map[j] = g.constant(n.value, n.kind);
      else if (needs[j] == 2)
        map[j] = replay_node(g, r, j, map);
      else if (!k[j])
        map[j] = n.is_input() ? late[n.index() - ki] : replay_node(g, r, j, map);
    }
    for (std::size_t o = ko; o < IR::output_leaves; ++o) g.output(map[r.outputs[o]], r.nodes[r.outputs[o]].dims);
    return g;
  }
};

}  // namespace detail
CALX_END_NAMESPACE

#endif // CALX_DETAIL_PASSES_SOURCES_HPP
