/// @file detail/call/loop_op.hpp
/// @brief The op behind calx's loops (`fori_loop`, `scan`; `while_loop` shares its steps): one
/// IR node whose body is a sub-program traced once, run as a real loop, so the IR and the
/// generated code grow with the body, not with the trip count (nor with the size of a
/// tensor carry: a tensor is one value). Its operands are the bounds, N carries and X
/// per-step inputs (tensors whose leading axis has L entries, entry s read at step s); its
/// results the final carries and Y per-step outputs (stacked along a new leading axis of
/// L). Forward mode is the loop of the body's jvp; reverse mode a loop that stores every
/// step's carries and runs the body's vjp backwards (the bounds traced or not: the storage
/// is sized when the loop runs). Carries, inputs and outputs are scalars or tensors.
#ifndef CALX_DETAIL_CALL_LOOP_OP_HPP
#define CALX_DETAIL_CALL_LOOP_OP_HPP

#include <calx/detail/internal_header_check.hpp>

#include <calx/config.hpp>
#include <calx/detail/call/late_call.hpp>
#include <calx/detail/call/run.hpp>
#include <calx/detail/call/trace_source.hpp>
#include <calx/detail/exec/loop_kernels.hpp>
#include <calx/detail/exec/results_kernel.hpp>
#include <calx/detail/ir/shape.hpp>
#include <calx/detail/passes/autodiff.hpp>
#include <calx/detail/passes/expand.hpp>
#include <calx/detail/passes/ir_text.hpp>
#include <calx/detail/passes/replay.hpp>
#include <calx/detail/passes/sources.hpp>
#include <calx/op_traits.hpp>
#include <calx/tracer.hpp>
#include <calx/tree.hpp>

#include <array>
#include <cstddef>
#include <string>
#include <tuple>
#include <type_traits>
#include <vector>

CALX_BEGIN_NAMESPACE

namespace detail {

/// The shapes of the values of structures `Trees...`, in flattening order: rank 0 for a
/// scalar, a tensor's own shape.
template <class... Trees>
struct value_dims {
  static constexpr std::size_t size = (std::size_t{0} + ... + value_count_v<Trees>);
  static constexpr std::array<shape, size == 0 ? 1 : size> value = [] {
    std::array<shape, size == 0 ? 1 : size> d{};
    std::size_t k = 0;
    auto add = [&]<class T>(const T& t) {
      for_each_traced_leaf(t, [&]<class X>(const X&) {
        if constexpr (traced_whole<X>)
          d[k++] = tree_node<X>::dims;
        else
          d[k++] = shape{};
      });
    };
    (add(Trees{}), ...);
    return d;
  }();
};

/// A loop's step as a program: `Step{}(i, u)`, with the index `i` and `u` the carries and
/// per-step inputs (one tracer per value, a tensor's its node of shape `Dims::value[k]`),
/// gives the next carries and the per-step outputs, likewise. Inputs (i, u...), outputs
/// (carries..., outputs...).
template <class Step, class Dims>
struct step_source {
  static constexpr graph build() {
    graph g;
    const tracer i{&g, g.input()};
    std::array<tracer, Dims::size> u{};
    for (std::size_t k = 0; k < Dims::size; ++k) u[k] = tracer{&g, g.input(value_kind::real, false, Dims::value[k])};
    for (const tracer& t : Step{}(i, u)) g.output(t.id);
    return g;
  }
};

/// A step's program for values `V` (user ops expanded as `V` needs), as codegen runs it.
template <class Source, class V>
inline constexpr const auto& program_for_v = materialized<lowered_unchecked_t<Source, V>>::slotted;

/// Records `Op` on operand ids `in` and writes its `n` results' ids to `out` (a loop op is
/// a tuple node whatever its result count: see `emit_op`).
template <class Op>
constexpr void record_loop(graph& g, int* in, int* out, std::size_t n) {
  const int id = emit_op(g, ref_of<Op>(), in);
  for (std::size_t k = 0; k < n; ++k) out[k] = g.get(id, static_cast<int>(k));
}

/// The graph of the first traced leaf or tensor of `a...`.
template <class... A>
constexpr graph* common_graph_of(const A&... a) {
  graph* g = nullptr;
  auto look = [&]<class X>(const X& leaf) {
    if (g != nullptr) return;
    if constexpr (traced_whole<X>)
      g = tree_node<X>::traced(leaf).graph;
    else if constexpr (real_tracer<X>)
      g = leaf.graph;
  };
  (for_each_traced_leaf(a, look), ...);
  return g;
}

/// The node ids of the values of `a...` in `g` (numbers and tensors of numbers become
/// constants).
template <class... A>
constexpr std::vector<int> value_ids(graph* g, const A&... a) {
  const auto x = flatten_as<tracer>(g, a...);
  std::vector<int> ids;
  for (const tracer& t : x) ids.push_back(t.id);
  return ids;
}

/// Op `Op` (a tuple node) recorded in `g` on operand ids `in`, its results as the
/// structure `R`, one result per value.
template <class Op, class R>
constexpr R record_results(graph& g, int* in) {
  constexpr std::size_t m = value_count_v<R>;
  std::array<int, m> res{};
  record_loop<Op>(g, in, res.data(), m);
  std::array<tracer, m> out{};
  for (std::size_t k = 0; k < m; ++k) out[k] = in_graph(g, res[k]);
  return unflatten<R>(out);
}

/// The values of `t` as `K` tracers (numbers and tensors of numbers become constants of
/// `g`).
template <std::size_t K, class T>
constexpr std::array<tracer, K> traced_values(graph& g, const T& t) {
  return flatten_as<tracer>(&g, t);
}

/// Forward mode of step program `S` (see `step_source`): inputs (i, c, dc, x, dx), outputs
/// (c', dc', y, dy), the index's tangent zero; values of any shape.
template <class S, std::size_t N, std::size_t X, std::size_t Y>
struct jvp_step_source {
  using Inner = expanded_t<S, expand_for::jvp>;
  static constexpr graph build() {
    const auto& r = materialized<Inner>::value;
    graph g;
    std::vector<int> pin(1 + N + X, -1), tin(1 + N + X, -1);  // a value: clang 14 cannot value-initialize in constexpr
    auto inputs = [&](std::size_t from, std::size_t count) {
      for (std::size_t k = from; k < from + count; ++k) pin[k] = g.input_like(r.nodes[r.inputs[k]]);
      for (std::size_t k = from; k < from + count; ++k) tin[k] = g.input_like(r.nodes[r.inputs[k]]);
    };
    pin[0] = g.input_like(r.nodes[r.inputs[0]]);
    inputs(1, N);
    inputs(1 + N, X);
    const std::vector<int> p = replay_all(r, g, pin);
    const std::vector<int> t = push_tangents(r, g, p, tin);
    auto outputs = [&](std::size_t from, std::size_t count) {
      for (std::size_t o = from; o < from + count; ++o) g.output(p[r.outputs[o]], r.nodes[r.outputs[o]].dims);
      for (std::size_t o = from; o < from + count; ++o) g.output(t[r.outputs[o]], r.nodes[r.outputs[o]].dims);
    };
    outputs(0, N);
    outputs(N, Y);
    return g;
  }
};

/// Reverse mode of step program `S`: inputs (i, c, x, ct_c, ct_y), outputs (ct_c, ct_x),
/// the cotangents of (c, x).
template <class S, std::size_t N, std::size_t X, std::size_t Y>
struct vjp_step_source {
  using Inner = expanded_t<S, expand_for::vjp>;
  static constexpr graph build() {
    const auto& r = materialized<Inner>::value;
    graph g;
    const std::vector<int> pin = inputs_like(g, r, 0, 1 + N + X);
    std::vector<int> seed(N + Y, -1);
    for (std::size_t o = 0; o < N + Y; ++o) seed[o] = g.input_like(r.nodes[r.outputs[o]]);
    std::vector<char> wrt(1 + N + X, 1);
    wrt[0] = 0;
    const std::vector<int> p = replay_all(r, g, pin);
    const std::vector<int> ct = pull_cotangents(r, g, p, seed, wrt);
    for (std::size_t k = 1; k < 1 + N + X; ++k) g.output(ct[k], r.nodes[r.inputs[k]].dims);
    return g;
  }
};

/// The loop op of step program `S`: operands (lower, upper, N carries, X per-step inputs
/// stacked over L steps), results (N final carries, Y per-step outputs stacked over L;
/// with `Keep`, then the carries the reverse loop reads, before every step: its residuals).
template <class S, std::size_t N, std::size_t X = 0, std::size_t Y = 0, std::size_t L = 0, bool Keep = false>
struct loop_op {};
/// Its reverse mode: operands (lower, upper, N carries, X inputs, with `FromKept` the
/// primal loop's tuple node, whose kept carries it reads in place, then N cotangents of the
/// final carries and Y of the outputs), results the cotangents of the carries and inputs.
template <class S, std::size_t N, std::size_t X = 0, std::size_t Y = 0, std::size_t L = 0, bool FromKept = false>
struct loop_vjp_op {};

/// How many forward-mode layers wrap a step. Each derivative of a loop is a loop of a new
/// step type, and an op's rules are taken with its description (the rules of a loop name
/// its derivative loops' ops, whose descriptions are made too), so the tower of op types
/// must stop: a loop op whose step has order below `loop_derivative_order_limit` has rules
/// (a reverse loop, itself one order up, below the limit minus one), enough for third
/// derivatives in any mode (jacfwd of hessian, grad of grad of grad). A derivative beyond
/// is refused in one message (`loop_order_limit_rules`). Since kernels are compiled only
/// for the ops a program holds (detail/exec/results_kernel.hpp), an order of the tower
/// costs its programs and rules, not their code.
template <class S>
inline constexpr int step_order_v = 0;
inline constexpr int loop_derivative_order_limit = 3;
static_assert(loop_derivative_order_limit == 3, "calx internal: the message of loop_order_limit_rules names the limit");
/// The rules of a loop op at the limit (`Results` results, `Operands` operands): the
/// transform stops with the message (one line: the compiler quotes the line of the call,
/// which is the message; see graph::refuse).
template <std::size_t Results, std::size_t Operands>
struct loop_order_limit_rules {
  static constexpr void refuse(bool now) {
    if (now)
      trace_error("calx: derivatives through fori_loop, scan and while_loop go up to order 3; this transform asks "
                  "for order 4 (each order is a loop op of its own type, compiled wherever the loop is: see "
                  "docs/control-flow.md, \"How far derivatives go\")");
  }
  static constexpr void jvp_ids(graph& g, const int*, const int*, const int*, int* out) {
    g.refuse(&refuse);
    for (std::size_t k = 0; k < Results; ++k) out[k] = -1;
  }
  static constexpr void vjp_ids(graph& g, const int*, const int*, const int*, int* out) {
    g.refuse(&refuse);
    for (std::size_t k = 0; k < Operands; ++k) out[k] = -1;
  }
};
template <class S, std::size_t N, std::size_t X, std::size_t Y>
inline constexpr int step_order_v<jvp_step_source<S, N, X, Y>> = 1 + step_order_v<S>;

/// Node `id`, or zeros of the shape of node `like` where `id` is a symbolic zero (a loop's
/// operands are not broadcast, so a per-step tensor's zero must have its shape).
constexpr int or_zeros(graph& g, int id, int like) {
  return id >= 0 ? id : broadcast_to(g, g.constant(0.0), g.nodes[like].dims);
}

/// Operand ids of a loop op being built: appended in order.
struct operand_list {
  id_buffer ids;
  int n = 0;
  constexpr explicit operand_list(int size) : ids(size) {}
  constexpr void add(int id) { ids[n++] = id; }
  /// `count` ids from `from`, each or zeros shaped like `like[k]`.
  constexpr void add(graph& g, const int* from, const int* like, std::size_t count) {
    for (std::size_t k = 0; k < count; ++k) add(or_zeros(g, from[k], like[k]));
  }
};

/// Whether any of `count` ids is not a symbolic zero.
constexpr bool any_nonzero(const int* ids, std::size_t count) {
  for (std::size_t k = 0; k < count; ++k)
    if (ids[k] >= 0) return true;
  return false;
}

/// Appends the operands of a doubled group to `in`: `count` primals from `p`, then their
/// tangents (or other partners) from `t`, a symbolic zero as zeros of its primal's shape.
constexpr void add_pairs(operand_list& in, graph& g, const int* p, const int* t, std::size_t count) {
  in.add(g, p, p, count);
  in.add(g, t, p, count);
}

template <class S, std::size_t N, std::size_t X, std::size_t Y, std::size_t L>
using jvp_loop_t = loop_op<jvp_step_source<S, N, X, Y>, 2 * N, 2 * X, 2 * Y, L>;
template <class S, std::size_t N, std::size_t X, std::size_t Y, std::size_t L>
using jvp_vjp_loop_t = loop_vjp_op<jvp_step_source<S, N, X, Y>, 2 * N, 2 * X, 2 * Y, L>;

/// Records the forward-mode loop of step `S` at the bounds, carries and inputs of operands
/// `x` (a loop op's or a reverse loop's: they begin alike) along tangents `dc` and `dx`, and
/// writes the tangents of its N carries to `out_c`, of its Y outputs to `out_y`.
template <class S, std::size_t N, std::size_t X, std::size_t Y, std::size_t L>
constexpr void record_jvp_loop(graph& g, const int* x, const int* dc, const int* dx, int* out_c, int* out_y) {
  using at = loop_slots<N, X, Y>;
  using twice = loop_slots<2 * N, 2 * X, 2 * Y>;
  operand_list in(static_cast<int>(twice::arity));
  in.add(x[at::lower]);
  in.add(x[at::upper]);
  add_pairs(in, g, x + at::c, dc, N);
  add_pairs(in, g, x + at::x, dx, X);
  int res[twice::outputs] = {};
  record_loop<jvp_loop_t<S, N, X, Y, L>>(g, in.ids.data(), res, twice::outputs);
  for (std::size_t k = 0; k < N; ++k) out_c[k] = res[at::tangent_of_c + k];
  for (std::size_t k = 0; k < Y; ++k) out_y[k] = res[at::tangent_of_y + k];
}

/// The derivative rules of `loop_op`, up to the limit (see `step_order_v`). Operands: 0 and
/// 1 the bounds (integers: no tangent, no cotangent), then carries c, inputs x; results:
/// carries, then outputs y (and the kept carries, whose tangent and cotangent are never
/// read: the reverse loop's own rules recompute from c and x).
template <class S, std::size_t N, std::size_t X, std::size_t Y, std::size_t L, bool Keep,
          bool = (step_order_v<S> < loop_derivative_order_limit)>
struct loop_rules : loop_order_limit_rules<loop_slots<N, X, Y, Keep>::outputs, loop_slots<N, X, Y, Keep>::arity> {};
template <class S, std::size_t N, std::size_t X, std::size_t Y, std::size_t L, bool Keep>
struct loop_rules<S, N, X, Y, L, Keep, true> {
  using at = loop_slots<N, X, Y, Keep>;

  /// Tangents of the results: the loop over (c, dc) and (x, dx) under the body's jvp.
  static constexpr void jvp_ids(graph& g, const int*, const int* x, const int* t, int* out) {
    if constexpr (Keep) out[at::out_kept] = -1;
    if (!any_nonzero(t + at::c, N + X)) {
      for (std::size_t k = 0; k < N + Y; ++k) out[k] = -1;
      return;
    }
    record_jvp_loop<S, N, X, Y, L>(g, x, t + at::c, t + at::x, out + at::out_c, out + at::out_y);
  }

  /// Cotangents of the carries and the inputs: the reverse loop. With a length known to the
  /// type (scan), the primal loop is made, in place, the variant that keeps the carries of
  /// every step, and the reverse loop reads them: the forward pass runs once, as JAX's
  /// partial evaluation of scan arranges (the node's other results are the same values).
  /// Otherwise (fori_loop, its bounds traced or not) the reverse loop runs a forward pass of
  /// its own that stores the carries on the heap, sized when it runs.
  static constexpr void vjp_ids(graph& g, const int* ct, const int* y, const int* x, int* out) {
    out[at::lower] = out[at::upper] = -1;
    if (!any_nonzero(ct, N + Y)) {
      for (std::size_t k = 0; k < N + X; ++k) out[at::c + k] = -1;
      return;
    }
    constexpr bool kept = L > 0;
    using rev = loop_slots<N, X, Y, kept>;
    operand_list in(static_cast<int>(rev::vjp_arity));
    in.add(x[at::lower]);
    in.add(x[at::upper]);
    in.add(g, x + at::c, x + at::c, N + X);
    if constexpr (kept) {
      const int loop = g.operand(y[0], 0);  // y are the gets of the primal tuple node
      if constexpr (!Keep) {
        g.nodes[loop].op = ref_of<loop_op<S, N, X, Y, L, true>>();
        g.nodes[loop].attr[0] = g.nodes[loop].op().result_offset(static_cast<int>(loop_slots<N, X, Y, true>::outputs));
      }
      in.add(loop);  // the tuple itself: its kernel reads the kept carries in place, no copy
    }
    in.add(g, ct, y, N + Y);  // ct_c then ct_y, each shaped like its result
    record_loop<loop_vjp_op<S, N, X, Y, L, kept>>(g, in.ids.data(), out + at::c, rev::vjp_outputs);
  }
};

/// The derivative rules of `loop_vjp_op`, up to the limit (see `step_order_v`). With
/// G(u, ct) = J(u)^T ct (u the carries and inputs) and H(u, du) = (F(u), J du) the jvp
/// loop: G's tangent along (du, dct) is H's vjp at (u, du) on cotangents (dct, ct), its
/// u-part; G's vjp on w is that with (du, dct) = (w, 0), and J w (H's tangent part) for
/// ct. The kept carries are a cache of a function of u: no tangent or cotangent goes
/// through them.
template <class S, std::size_t N, std::size_t X, std::size_t Y, std::size_t L, bool FromKept,
          bool = (step_order_v<S> < loop_derivative_order_limit - 1)>
struct loop_vjp_rules
    : loop_order_limit_rules<loop_slots<N, X, Y, FromKept>::vjp_outputs, loop_slots<N, X, Y, FromKept>::vjp_arity> {};
template <class S, std::size_t N, std::size_t X, std::size_t Y, std::size_t L, bool FromKept>
struct loop_vjp_rules<S, N, X, Y, L, FromKept, true> {
  using at = loop_slots<N, X, Y, FromKept>;
  using twice = loop_slots<2 * N, 2 * X, 2 * Y>;

  /// The reverse loop of the jvp loop, at (u, du) on cotangents (dct, ct): writes the
  /// u-part of its results (N then X ids) to `out`. Its operands: (c, dc), (x, dx),
  /// (dct_c, ct_c), (dct_y, ct_y), each pair shaped like its primal.
  static constexpr void second_order(graph& g, const int* x, const int* du, const int* dct, int* out) {
    operand_list in(static_cast<int>(twice::vjp_arity));
    in.add(x[at::lower]);
    in.add(x[at::upper]);
    add_pairs(in, g, x + at::c, du, N);
    add_pairs(in, g, x + at::x, du + N, X);
    in.add(g, dct, x + at::ct_c, N);
    in.add(g, x + at::ct_c, x + at::ct_c, N);
    in.add(g, dct + N, x + at::ct_y, Y);
    in.add(g, x + at::ct_y, x + at::ct_y, Y);
    int res[twice::vjp_outputs] = {};
    record_loop<jvp_vjp_loop_t<S, N, X, Y, L>>(g, in.ids.data(), res, twice::vjp_outputs);
    for (std::size_t k = 0; k < N; ++k) out[at::out_ct_c + k] = res[at::ct_of_c + k];
    for (std::size_t k = 0; k < X; ++k) out[at::out_ct_x + k] = res[at::ct_of_x + k];
  }

  static constexpr void jvp_ids(graph& g, const int*, const int* x, const int* t, int* out) {
    if (!any_nonzero(t + at::c, N + X) && !any_nonzero(t + at::ct_c, N + Y)) {
      for (std::size_t k = 0; k < N + X; ++k) out[k] = -1;
      return;
    }
    // (c, x) and (ct_c, ct_y) are contiguous groups of operands: their tangents are too.
    second_order(g, x, t + at::c, t + at::ct_c, out);
  }

  static constexpr void vjp_ids(graph& g, const int* w, const int*, const int* x, int* out) {
    for (std::size_t k = 0; k < at::vjp_arity; ++k) out[k] = -1;
    if (!any_nonzero(w, N + X)) return;
    int zeros[N + Y];
    for (std::size_t k = 0; k < N + Y; ++k) zeros[k] = -1;
    second_order(g, x, w, zeros, out + at::c);
    record_jvp_loop<S, N, X, Y, L>(g, x, w + at::out_ct_c, w + at::out_ct_x, out + at::ct_c, out + at::ct_y);
  }
};

/// The carries a reverse loop of step program `S` reads back for each step
/// (`carry_store`): computed from the step's and its vjp's programs, so only where a
/// reverse loop is made.
template <class S, std::size_t N, std::size_t X, std::size_t Y>
struct stored_carries {
  static constexpr carry_store<N> value =
      carries_to_store<N>(materialized<S>::value, materialized<vjp_step_source<S, N, X, Y>>::value);
};
/// None stored: a loop op that keeps no carries, whose vjp program is not made.
template <class S, std::size_t N>
struct no_stored_carries {
  static constexpr carry_store<N> value{};
};
template <bool Keep, class S, std::size_t N, std::size_t X, std::size_t Y>
using stored_carries_t = std::conditional_t<Keep, stored_carries<S, N, X, Y>, no_stored_carries<S, N>>;

/// `L` prepended to shape `d`: a value stacked over the steps.
constexpr shape stacked_dims(std::size_t L, shape d) {
  shape s{};
  s.rank = d.rank + 1;
  s.extent[0] = static_cast<std::int32_t>(L);
  for (int j = 0; j < d.rank; ++j) s.extent[j + 1] = d.extent[j];
  return s;
}

/// A loop op's result shapes: the N carries' (those of step program `S`'s first outputs),
/// then the Y per-step outputs' stacked over L steps, then (`Keep`: the kept carries) L
/// times the elements stored per step (at least one). The programs are read here, when
/// the op's description asks, not when its type is made: clang cannot evaluate a body's
/// program while the function around it is still being traced.
template <class S, std::size_t N, std::size_t X, std::size_t Y, std::size_t L, bool Keep>
constexpr shape loop_result_dims(int k) {
  const auto& p = materialized<S>::value;
  const auto j = static_cast<std::size_t>(k);
  if (j < N) return p.nodes[p.outputs[j]].dims;
  if (j < N + Y) return stacked_dims(L, p.nodes[p.outputs[j]].dims);
  std::size_t stored = 1;
  if constexpr (Keep) stored = stored_carries<S, N, X, Y>::value.count;
  return stacked_dims(L * (stored == 0 ? 1 : stored), shape{});
}

/// Program k of `Programs...` for code generation on numbers or (`simd`, where `Lanes`)
/// SIMD batches: a descriptor's `results_kernel_info::program`. Without `Lanes` (a branch
/// op: SIMD groups run its decomposition) no SIMD program is made.
template <bool Lanes, class... Programs>
constexpr program_view program_views(int k, bool simd) {
  program_view v{};
  int j = 0;
  auto pick = [&]<class P>() {
    if (j++ != k) return;
    // Read where code is generated: a refused program is never compiled (see `runnable`).
    if constexpr (materialized<P>::refusal != nullptr) materialized<P>::refusal(true);
    if constexpr (Lanes) {
      if (simd) {
        v = view_of(program_for_v<P, xsimd::batch<double>>);
        return;
      }
    }
    v = view_of(program_for_v<P, double>);
  };
  (pick.template operator()<Programs>(), ...);
  return v;
}

/// The carry store `Store::value` of step program `S` with N carries, as a view.
template <class Store, class S, std::size_t N>
constexpr store_view carry_store_of() {
  return {Store::value.first.data(), N, Store::value.count};
}

/// A reverse loop's result shapes: the cotangents of the N carries, then of the X per-step
/// inputs stacked over L steps (`S`'s inputs after the index).
template <class S, std::size_t N, std::size_t L>
constexpr shape loop_vjp_result_dims(int k) {
  const auto& p = materialized<S>::value;
  const auto j = static_cast<std::size_t>(k);
  const shape d = p.nodes[p.inputs[1 + j]].dims;
  return j < N ? d : stacked_dims(L, d);
}

}  // namespace detail

/// One IR node (printed `fori_loop`, or `scan` when it has per-step values; its body
/// nested): the loop runs on numbers, and on SIMD lanes under vmap.
template <class S, std::size_t N, std::size_t X, std::size_t Y, std::size_t L, bool Keep>
struct op_traits<detail::loop_op<S, N, X, Y, L, Keep>> : detail::loop_rules<S, N, X, Y, L, Keep> {
  using at = detail::loop_slots<N, X, Y, Keep>;
  static constexpr const char* name = X + Y == 0 ? "fori_loop" : "scan";
  static constexpr int arity = static_cast<int>(at::arity);
  static constexpr int outputs = static_cast<int>(at::outputs);
  static constexpr bool broadcasts = false;
  using source = S;
  using store = detail::stored_carries_t<Keep, S, N, X, Y>;
  static constexpr auto result_dims = &detail::loop_result_dims<S, N, X, Y, L, Keep>;

  // Operands and results: see loop_slots. A result's elements: those of the carries
  // (the flat layout `loop_layout`), then the stacked per-step outputs, then the kept carries
  // (detail/exec/results_kernel.hpp, `run_loop`).
  static constexpr detail::results_kernel_info results_kernel{
      detail::results_kind::loop, N, X, Y, L, Keep, true, 1, &detail::program_views<true, S>,
      &detail::carry_store_of<store, S, N>, &detail::first_refusal<S>};

  static const char* parameters(bool single) {
    static const std::string text[2] = {detail::nested_programs_text<source>({"body"}, false),
                                        detail::nested_programs_text<source>({"body"}, true)};
    return text[single ? 1 : 0].c_str();
  }
};

/// The reverse loop (printed `fori_loop_vjp` or `scan_vjp`): runs the body's vjp backwards
/// over the kept carries, or over those of a forward pass of its own.
template <class S, std::size_t N, std::size_t X, std::size_t Y, std::size_t L, bool FromKept>
struct op_traits<detail::loop_vjp_op<S, N, X, Y, L, FromKept>> : detail::loop_vjp_rules<S, N, X, Y, L, FromKept> {
  using at = detail::loop_slots<N, X, Y, FromKept>;
  static constexpr const char* name = X + Y == 0 ? "fori_loop_vjp" : "scan_vjp";
  static constexpr int arity = static_cast<int>(at::vjp_arity);
  static constexpr int outputs = static_cast<int>(at::vjp_outputs);
  static constexpr bool broadcasts = false;
  static constexpr auto result_dims = &detail::loop_vjp_result_dims<S, N, L>;
  using source = S;
  using vjp_source = detail::vjp_step_source<S, N, X, Y>;

  // Operands and results: see loop_slots. The primal tuple's kept carries follow its
  // carries and stacked outputs (see op_traits<loop_op>; `run_loop_vjp`).
  static constexpr detail::results_kernel_info results_kernel{
      detail::results_kind::loop_vjp, N, X, Y, L, FromKept, true, 2, &detail::program_views<true, S, vjp_source>,
      &detail::carry_store_of<detail::stored_carries<S, N, X, Y>, S, N>, &detail::first_refusal<S, vjp_source>};

  static const char* parameters(bool single) {
    static const std::string text[2] = {
        detail::nested_programs_text<source, vjp_source>({"body", "body_vjp"}, false),
        detail::nested_programs_text<source, vjp_source>({"body", "body_vjp"}, true)};
    return text[single ? 1 : 0].c_str();
  }
};

CALX_END_NAMESPACE

#endif  // CALX_DETAIL_CALL_LOOP_OP_HPP
