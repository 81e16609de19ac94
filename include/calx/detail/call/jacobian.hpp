/// @file detail/call/jacobian.hpp
/// @brief `jacobian_source`: the program of `jacfwd` and `jacrev`, x -> (f(x), J). Each block
/// of J (one output value against one input value) is made by a forward pass per input
/// element (jacfwd) or a reverse pass per output element (jacrev), each seeded with one
/// basis vector. Passes over a value of at most `unrolled_basis_max` elements are written
/// out, one after the other; over a larger one they are one loop op (detail/call/loop_op.hpp)
/// whose step is the pass's late part (from the residuals, computed once before the loop, and
/// the seed) seeded with basis vector s at step s, its results stacked: the IR, the
/// compile time and the compiler's memory grow with the program, not with the elements (as
/// JAX's jacfwd is one vmapped jvp over the basis).
#ifndef CALX_DETAIL_CALL_JACOBIAN_HPP
#define CALX_DETAIL_CALL_JACOBIAN_HPP

#include <calx/detail/internal_header_check.hpp>

#include <calx/detail/call/loop_op.hpp>
#include <calx/detail/ir/graph.hpp>
#include <calx/detail/ir/ir.hpp>
#include <calx/detail/tensor/ir_ops.hpp>
#include <calx/detail/passes/autodiff.hpp>
#include <calx/detail/passes/expand.hpp>
#include <calx/detail/passes/replay.hpp>
#include <calx/detail/passes/sources.hpp>
#include <calx/tracer.hpp>

#include <array>
#include <cstddef>
#include <vector>

CALX_BEGIN_NAMESPACE
namespace detail {

/// The most elements a value may have for the passes over it to be written out; past it
/// they are one loop. Written out, a small Jacobian is straight-line code the compiler
/// folds (its basis vectors are constants: up to 2x faster at run time); the loop costs a
/// step program and its kernel, compiles as fast at about 10 elements and faster above
/// (measured: docs/performance.md section 6, "Where the loop starts").
inline constexpr int unrolled_basis_max = 8;

/// Element `e` of a value of shape `s` set to 1, the others 0: the seed of one Jacobian row
/// or column, written out.
constexpr int one_hot(graph& g, shape s, int e) {
  if (s.rank == 0) return g.constant(1.0);
  std::vector<int> ids(static_cast<std::size_t>(s.size()), -1);
  ids[static_cast<std::size_t>(e)] = g.constant(1.0);
  return pack(g, ids.data(), s);
}

/// The vector of `n` elements [1, 0, ..., 0]: a basis loop's first seed.
constexpr int first_basis_vector(graph& g, int n) {
  shape one{}, to{};
  one.rank = to.rank = 1;
  one.extent[0] = 1;
  to.extent[0] = n;
  return pad(g, broadcast_to(g, g.constant(1.0), one), to, 0, 0);
}

/// Basis vector `e` (`n` elements, n > 1) moved one place on: the next step's seed.
constexpr int next_basis_vector(graph& g, int e, int n) {
  return pad(g, slice(g, e, 0, 0, n - 1), g.nodes[e].dims, 0, 1);
}

/// A basis loop's step values: the residuals its pass reads (the inputs of program `Late`
/// but its last), carried unchanged, then the basis vector of `L` elements.
template <class Late, std::size_t L>
struct basis_step_dims {
  static constexpr std::size_t residuals = inner_ir_t<Late>::input_leaves - 1;
  static constexpr std::size_t size = residuals + 1;
  static constexpr std::array<shape, size> value = [] {
    const auto& r = materialized<Late>::value;
    std::array<shape, size> d{};
    for (std::size_t k = 0; k < residuals; ++k) d[k] = r.nodes[r.inputs[k]].dims;
    d[residuals].rank = 1;
    d[residuals].extent[0] = static_cast<std::int32_t>(L);
    return d;
  }();
};

/// The step of a basis loop (see `step_source`): the residuals and the basis vector e in;
/// the same residuals and the next basis vector out, then program `Late` run on the
/// residuals and e (the tangents of a jvp along e, or the cotangents of a vjp from e), its
/// outputs `Picks` (flat output ranges) only.
template <class Late, class Picks>
struct basis_step {
  template <std::size_t K>
  constexpr std::vector<tracer> operator()(tracer, const std::array<tracer, K>& u) const {
    using IR = inner_ir_t<Late>;
    const auto& r = materialized<Late>::value;
    constexpr std::size_t n = IR::input_leaves;
    graph& g = *u[n - 1].graph;
    const int e = u[n - 1].id;
    std::vector<int> in(n, -1);
    for (std::size_t k = 0; k + 1 < n; ++k) in[k] = u[k].id;
    in[n - 1] = reshape(g, e, r.nodes[r.inputs[n - 1]].dims);
    const std::vector<int> q = replay_all(r, g, in);
    std::vector<int> res(in.begin(), in.end() - 1);
    res.push_back(next_basis_vector(g, e, g.nodes[e].dims.extent[0]));
    for (int o : values_in<Picks>(r.output_offset, IR::output_leaves)) res.push_back(q[r.outputs[o]]);
    std::vector<tracer> out;
    for (int id : res) out.push_back(tracer{&g, id});
    return out;
  }
};

/// A basis loop's step is a first derivative already: counted as one order of the loop
/// tower (see `step_order_v`), so the derivatives its rules prepare reach order 3 in all
/// (jacfwd of a hessian) and no further; an order more would compile its programs in every
/// Jacobian whether or not anything differentiates it.
template <class Late, class Picks, class Dims>
inline constexpr int step_order_v<step_source<basis_step<Late, Picks>, Dims>> = 1;

/// `values_in<Spec>` as a constant array of its `K` values (one entry when there are none).
template <std::size_t K, class Spec, class Offsets>
constexpr std::array<int, K == 0 ? 1 : K> values_array(const Offsets& offset, std::size_t n) {
  std::array<int, K == 0 ? 1 : K> a{};
  const std::vector<int> v = values_in<Spec>(offset, n);
  for (std::size_t k = 0; k < v.size(); ++k) a[k] = v[k];
  return a;
}

/// Inputs x -> (f(x), J) with J[o][k] = d out_o / d in_k for o in Outs, k in Wrt (row
/// major), by forward passes over the basis of each input (Forward) or reverse passes over
/// that of each output.
template <class Inner0, class Wrt, class Outs, bool Forward>
struct jacobian_source {
  using Inner = expanded_t<Inner0, Forward ? expand_for::jvp : expand_for::vjp>;
  using IR = inner_ir_t<Inner>;
  static constexpr const auto& r = materialized<Inner>::value;
  static constexpr std::size_t wrt_count = values_in<Wrt>(r.input_offset, IR::input_leaves).size();
  static constexpr std::size_t out_count = values_in<Outs>(r.output_offset, IR::output_leaves).size();
  static constexpr auto wrt = values_array<wrt_count, Wrt>(r.input_offset, IR::input_leaves);
  static constexpr auto outs = values_array<out_count, Outs>(r.output_offset, IR::output_leaves);
  /// The values the passes run over: the inputs in Wrt (forward), the outputs in Outs.
  static constexpr std::size_t passes = Forward ? wrt_count : out_count;
  static constexpr int pass_size(std::size_t j) {
    return Forward ? r.nodes[r.inputs[wrt[j]]].size() : r.nodes[r.outputs[outs[j]]].size();
  }

  /// Pass J as a program of (x, seed), x all the inputs, the seed a tangent of input value
  /// wrt[J] (forward) or a cotangent of output value outs[J], split where the seed comes
  /// in (as linearize and vjp's pullback are): `known` computes f(x) and the residuals,
  /// `late` the pass from the residuals and the seed. The loop runs the late part only, so
  /// the function is computed once, not once per basis vector.
  template <std::size_t J>
  struct split_pass {
    static constexpr std::size_t first = Forward ? r.input_offset[wrt[J]] : r.output_offset[outs[J]];
    using Seed = range_spec<first, first + static_cast<std::size_t>(pass_size(J))>;
    using Pass = std::conditional_t<Forward, jvp_source<Inner0, Seed>, vjp_source<Inner0, Wrt, Seed, true>>;
    using known = known_source<Pass, IR::input_count, IR::output_count>;
    using late = late_source<Pass, IR::input_count, IR::output_count>;
    /// The late part's outputs the blocks are made of: forward, the tangents of the outputs
    /// in Outs (it gives every output's); reverse, all (the cotangents of the inputs in Wrt).
    using picks = std::conditional_t<Forward, Outs, range_spec<0, inner_ir_t<late>::output_count>>;
  };

  /// The loop over the basis of pass value `J`: the residuals of x (inputs `pin`) and the
  /// first basis vector in, its per-step outputs stacked (one per value of the other side,
  /// `L` rows each), each made the row-major block [out elements, in elements] (forward:
  /// transposed).
  template <std::size_t J>
  static constexpr std::vector<int> basis_loop(graph& g, const std::vector<int>& pin) {
    constexpr std::size_t L = static_cast<std::size_t>(pass_size(J));
    using S = split_pass<J>;
    using KIR = inner_ir_t<typename S::known>;
    const auto& known = materialized<typename S::known>::value;
    const std::vector<int> q = replay_all(known, g, pin);
    constexpr std::size_t n = KIR::output_leaves - IR::output_leaves;  // residuals
    constexpr std::size_t m = Forward ? out_count : wrt_count;
    using Dims = basis_step_dims<typename S::late, L>;
    using Step = step_source<basis_step<typename S::late, typename S::picks>, Dims>;
    using Op = loop_op<Step, n + 1, 0, m, L>;
    std::vector<int> in{g.constant(0.0), g.constant(static_cast<double>(L))};
    for (std::size_t k = 0; k < n; ++k) in.push_back(q[known.outputs[IR::output_leaves + k]]);
    in.push_back(first_basis_vector(g, static_cast<int>(L)));
    std::vector<int> res(n + 1 + m, -1);
    record_loop<Op>(g, in.data(), res.data(), n + 1 + m);
    std::vector<int> blocks;
    for (std::size_t k = 0; k < m; ++k) {
      const int y = res[n + 1 + k];
      shape rows{};
      rows.rank = 2;
      rows.extent[0] = static_cast<std::int32_t>(L);
      rows.extent[1] = g.nodes[y].dims.size() / static_cast<int>(L);
      const int block = reshape(g, y, rows);
      blocks.push_back(Forward ? transpose(g, block) : block);
    }
    return blocks;
  }

  static constexpr graph build() {
    graph g;
    const std::vector<int> pin = inputs_like(g, r);
    const std::vector<int> p = replay_all(r, g, pin);
    // block[o][i]: the block of output value outs[o] and input value wrt[i], one node (a
    // tensor of its entries in row-major order), or -2 where its entries are in `entries`.
    std::vector<int> block(out_count * wrt_count, -2);
    auto at_block = [&](std::size_t o, std::size_t i) -> int& { return block[o * wrt_count + i]; };
    auto size = [&](int node) { return static_cast<std::size_t>(r.nodes[node].size()); };
    // Entry (f, e) of the block of output value `out` and input value `i`, written out:
    // the blocks of one output value one after the other, each row-major, as JAX lays out
    // the jacobian of an array output with respect to several inputs (one array per input:
    // the output's axes, then the input's; see `tensor_rebind`).
    std::vector<std::vector<int>> entries(out_count * wrt_count);
    auto entry = [&](std::size_t o, std::size_t i, std::size_t f, std::size_t e) -> int& {
      std::vector<int>& b = entries[o * wrt_count + i];
      const std::size_t si = size(r.inputs[wrt[i]]);
      if (b.empty()) b.assign(size(r.outputs[outs[o]]) * si, -1);
      return b[f * si + e];
    };
    [&]<std::size_t... J>(std::index_sequence<J...>) {
      auto pass = [&]<std::size_t Jj>(std::integral_constant<std::size_t, Jj>) {
        if constexpr (pass_size(Jj) > unrolled_basis_max) {
          const std::vector<int> b = basis_loop<Jj>(g, pin);
          for (std::size_t k = 0; k < b.size(); ++k) (Forward ? at_block(k, Jj) : at_block(Jj, k)) = b[k];
        } else if constexpr (Forward) {
          const int i = wrt[Jj];
          for (int e = 0; e < r.nodes[r.inputs[i]].size(); ++e) {
            std::vector<int> tin(IR::input_leaves, -1);
            tin[i] = one_hot(g, r.nodes[r.inputs[i]].dims, e);
            const std::vector<int> t = push_tangents(r, g, p, tin);
            for (std::size_t o = 0; o < out_count; ++o) {
              const int y = t[r.outputs[outs[o]]];
              if constexpr (pass_size(Jj) == 1) {
                at_block(o, Jj) = y;  // one column: the tangent is the block
              } else {
                for (std::size_t f = 0; f < size(r.outputs[outs[o]]); ++f)
                  entry(o, Jj, f, static_cast<std::size_t>(e)) = index(g, y, static_cast<int>(f));
              }
            }
          }
        } else {
          const int out = outs[Jj];
          const std::vector<char> mask = input_mask<Wrt>(r);
          for (int f = 0; f < r.nodes[r.outputs[out]].size(); ++f) {
            std::vector<int> seed(IR::output_leaves, -1);
            seed[out] = one_hot(g, r.nodes[r.outputs[out]].dims, f);
            const std::vector<int> ct = pull_cotangents(r, g, p, seed, mask);
            for (std::size_t i = 0; i < wrt_count; ++i) {
              const int c = ct[wrt[i]];
              if constexpr (pass_size(Jj) == 1) {
                at_block(Jj, i) = c;  // one row: the cotangent is the block
              } else {
                for (std::size_t e = 0; e < size(r.inputs[wrt[i]]); ++e)
                  entry(Jj, i, static_cast<std::size_t>(f), e) = index(g, c, static_cast<int>(e));
              }
            }
          }
        }
      };
      (pass(std::integral_constant<std::size_t, J>{}), ...);
    }(std::make_index_sequence<passes>{});
    g.outputs_from(r, r.outputs, p);
    for (std::size_t o = 0; o < out_count; ++o)
      for (std::size_t i = 0; i < wrt_count; ++i) {
        const int b = at_block(o, i);
        const std::size_t n = size(r.outputs[outs[o]]) * size(r.inputs[wrt[i]]);
        if (b == -2) {
          const std::vector<int>& e = entries[o * wrt_count + i];
          for (std::size_t k = 0; k < n; ++k) g.outputs.push_back(e.empty() ? -1 : e[k]);
        } else if (n == 1) {
          g.outputs.push_back(b);
        } else {
          shape flat{};
          flat.rank = 1;
          flat.extent[0] = static_cast<std::int32_t>(n);
          g.output(reshape(g, b, flat), flat);
        }
      }
    return g;
  }
};

}  // namespace detail
CALX_END_NAMESPACE

#endif // CALX_DETAIL_CALL_JACOBIAN_HPP
