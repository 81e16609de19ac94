/// @file detail/passes/sources.hpp
/// @brief The programs transforms derive, as types: each has `static constexpr graph
/// build()` over the materialized IR of an inner program, so a composition such as
/// grad(grad(f)) is a chain of types, each IR computed once at compile time.
///
/// `Wrt::leaves` lists flat input indices (in the order results are returned) and
/// `Outs::leaves` flat output indices to differentiate.
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

/// Indices `B, B+1, ..., E-1`.
template <std::size_t B, std::size_t E>
struct range_spec {
  static constexpr auto leaves = [] {
    std::array<std::size_t, E - B> a{};
    for (std::size_t i = 0; i < E - B; ++i) a[i] = B + i;
    return a;
  }();
};

template <class Spec, std::size_t N>
constexpr std::vector<char> mask_of_leaves() {
  std::vector<char> m(N, 0);
  for (std::size_t i : Spec::leaves) m[i] = 1;
  return m;
}

template <class Inner>
using inner_ir_t = typename materialized<Inner>::ir_type;

/// New inputs for all flat inputs of `r`.
template <class IR>
constexpr std::vector<int> inputs_like(graph& g, const IR& r) {
  return inputs_like(g, r, 0, IR::input_count);
}

/// New inputs at the flat positions `leaves` (whole ranges, in order) of the flat list
/// `list` of `r`, written into the flat list `into`.
template <class IR, class Leaves, class List>
constexpr void inputs_at(graph& g, const IR& r, const Leaves& leaves, const List& list, std::vector<int>& into) {
  for (std::size_t k = 0; k < leaves.size();) {
    const node& n = r.nodes[list[leaves[k]]];
    const int id = g.input_like(n);
    for (int e = 0; e < n.size(); ++e) into[leaves[k + static_cast<std::size_t>(e)]] = id;
    k += static_cast<std::size_t>(n.size());
  }
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
    const std::vector<char> batched = mask_of_leaves<Batched, IR::input_count>();
    std::vector<int> pin;
    pin.reserve(IR::input_count);
    for (std::size_t i = 0; i < IR::input_count;) {
      const node& n = r.nodes[r.inputs[i]];
      const int id = g.input(value_kind::real, batched[i] != 0, n.dims);
      pin.resize(pin.size() + static_cast<std::size_t>(n.size()), id);
      i += static_cast<std::size_t>(n.size());
    }
    const std::vector<int> p = replay_all(r, g, pin);
    g.outputs_from(r.outputs, p);
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
    std::vector<int> tin(IR::input_count, -1);
    inputs_at(g, r, Wrt::leaves, r.inputs, tin);
    const std::vector<int> p = replay_all(r, g, pin);
    const std::vector<int> t = push_tangents(r, g, p, tin);
    g.outputs_from(r.outputs, p);
    g.outputs_from(r.outputs, t);
    return g;
  }
};

/// Inputs (x[, ct[Outs]]) -> (f(x), cotangents of x[Wrt]). Without cotangent inputs every
/// output in `Outs` is seeded with 1: the gradient of a scalar output. Ops without a vjp
/// rule of their own are expanded into their decompositions first.
template <class Inner0, class Wrt, class Outs, bool CotangentInputs>
struct vjp_source {
  using Inner = expanded_t<Inner0, expand_for::vjp>;
  static constexpr graph build() {
    using IR = inner_ir_t<Inner>;
    const auto& r = materialized<Inner>::value;
    graph g;
    const std::vector<int> pin = inputs_like(g, r);
    std::vector<int> seed(IR::output_count, -1);
    if constexpr (CotangentInputs)
      inputs_at(g, r, Outs::leaves, r.outputs, seed);
    else
      for (std::size_t o : Outs::leaves) seed[o] = g.constant(1.0);
    const std::vector<int> p = replay_all(r, g, pin);
    const std::vector<int> ct = pull_cotangents(r, g, p, seed, mask_of_leaves<Wrt, IR::input_count>());
    g.outputs_from(r.outputs, p);
    g.outputs_from(Wrt::leaves, ct);
    return g;
  }
};

/// Inputs x -> (f(x), J) with J[o][k] = d out_o / d in_k for o in Outs, k in Wrt (row
/// major), by one forward pass per input (Forward) or one reverse pass per output.
template <class Inner0, class Wrt, class Outs, bool Forward>
struct jacobian_source {
  using Inner = expanded_t<Inner0, Forward ? expand_for::jvp : expand_for::vjp>;
  static constexpr graph build() {
    using IR = inner_ir_t<Inner>;
    const auto& r = materialized<Inner>::value;
    constexpr std::size_t nk = Wrt::leaves.size(), no = Outs::leaves.size();
    graph g;
    const std::vector<int> p = replay_all(r, g, inputs_like(g, r));
    std::vector<int> jac(no * nk, -1);
    if constexpr (Forward) {
      for (std::size_t k = 0; k < nk; ++k) {
        std::vector<int> tin(IR::input_count, -1);
        tin[Wrt::leaves[k]] = g.constant(1.0);
        const std::vector<int> t = push_tangents(r, g, p, tin);
        // Jacobian entries are scalars: an element of a tensor tangent is taken out.
        std::vector<int> tout(IR::output_count, -1);
        for (std::size_t o = 0; o < IR::output_count; ++o) tout[o] = t[r.outputs[o]];
        for (std::size_t o = 0; o < no; ++o) jac[o * nk + k] = scalar_at(g, tout, Outs::leaves[o]);
      }
    } else {
      const std::vector<char> wrt = mask_of_leaves<Wrt, IR::input_count>();
      for (std::size_t o = 0; o < no; ++o) {
        std::vector<int> seed(IR::output_count, -1);
        seed[Outs::leaves[o]] = g.constant(1.0);
        const std::vector<int> ct = pull_cotangents(r, g, p, seed, wrt);
        for (std::size_t k = 0; k < nk; ++k) jac[o * nk + k] = scalar_at(g, ct, Wrt::leaves[k]);
      }
    }
    g.outputs_from(r.outputs, p);
    g.outputs.insert(g.outputs.end(), jac.begin(), jac.end());
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
    const std::vector<char> k = known_nodes(r, K);
    graph g;
    const std::vector<int> pin = inputs_like(g, r, 0, K);
    std::vector<int> map(IR::size, -1);
    for (std::size_t j = 0; j < IR::size; ++j) {
      if (!k[j]) continue;
      const node& n = r.nodes[j];
      map[j] = n.is_input() ? pin[n.index()] : replay_node(g, r, j, map);
    }
    for (std::size_t o = 0; o < KO; ++o) {
      if (!k[r.outputs[o]]) trace_error("calx internal: an early output depends on late inputs");
      g.outputs.push_back(map[r.outputs[o]]);
    }
    for (int j : residual_nodes(r, K, KO)) g.output(map[j]);
    return g;
  }
};

template <class Inner, std::size_t K, std::size_t KO>
struct late_source {
  static constexpr graph build() {
    using IR = inner_ir_t<Inner>;
    const auto& r = materialized<Inner>::value;
    const std::vector<char> k = known_nodes(r, K);
    const std::vector<char> needs = late_needs(r, K, KO);
    graph g;
    std::vector<int> map(IR::size, -1);
    for (int j : residual_nodes(r, K, KO)) map[j] = g.input_like(r.nodes[j]);
    const std::vector<int> late = inputs_like(g, r, K, IR::input_count);
    for (std::size_t j = 0; j < IR::size; ++j) {
      const node& n = r.nodes[j];
      if (n.is_constant())
        map[j] = g.constant(n.value, n.kind);
      else if (needs[j] == 2)
        map[j] = replay_node(g, r, j, map);
      else if (!k[j])
        map[j] = n.is_input() ? late[n.index() - K] : replay_node(g, r, j, map);
    }
    for (std::size_t o = KO; o < IR::output_count; ++o) g.outputs.push_back(map[r.outputs[o]]);
    return g;
  }
};

}  // namespace detail
CALX_END_NAMESPACE

#endif // CALX_DETAIL_PASSES_SOURCES_HPP
