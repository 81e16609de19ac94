/// @file loop_op.hpp
/// @brief The op behind calx's loops (`fori_loop`, `scan`; `while_loop` shares its steps): one
/// IR node whose body is a sub-program traced once, run as a real loop, so the IR and the
/// generated code grow with the body, not with the trip count. Its operands are the bounds,
/// N carries and X per-step inputs (1-D tensors of L elements, element s read at step s);
/// its results the final carries and Y per-step outputs (1-D tensors of L). Forward mode is
/// the loop of the body's jvp; reverse mode a loop that stores every step's carries and runs
/// the body's vjp backwards (bounds known at compile time only, as in JAX).
#ifndef CALX_LOOP_OP_HPP
#define CALX_LOOP_OP_HPP

#include <calx/argnums.hpp>
#include <calx/config.hpp>
#include <calx/detail/call/run.hpp>
#include <calx/detail/call/trace_source.hpp>
#include <calx/detail/exec/loop_kernels.hpp>
#include <calx/detail/ir/shape.hpp>
#include <calx/grad.hpp>
#include <calx/jvp.hpp>
#include <calx/op_traits.hpp>
#include <calx/to_string.hpp>
#include <calx/tracer.hpp>
#include <calx/tree.hpp>

#include <array>
#include <cstddef>
#include <string>
#include <tuple>
#include <type_traits>

CALX_BEGIN_NAMESPACE

namespace detail {

/// A loop's step on flat values: `Step{}(i, in)` with the index `i` and `in` = (N carries,
/// X per-step inputs) gives (N next carries, Y per-step outputs). Its program has inputs
/// (i, in...) and outputs (carries..., outputs...).
template <class Step, std::size_t M>
using step_source = trace_source<Step, tracer, std::array<tracer, M>>;

/// A step's program for values `V` (user ops expanded as `V` needs), as codegen runs it.
template <class Source, class V>
inline constexpr const auto& program_for_v = materialized<lowered_t<Source, V>>::value;

/// The leaves of `t` as `K` tracers; a number becomes a constant of `g`.
template <std::size_t K, class T>
constexpr std::array<tracer, K> traced_leaves(graph& g, const T& t) {
  std::array<tracer, K> out{};
  std::size_t k = 0;
  for_each_leaf(t, [&]<class L>(const L& leaf) {
    if constexpr (real_tracer<L>)
      out[k++] = tracer(leaf);
    else
      out[k++] = in_graph(g, g.constant(static_cast<double>(leaf)));
  });
  return out;
}

/// `Step` as a function of the index and a flat array (what calx's transforms take).
template <class Step>
struct step_call {
  template <class I, std::size_t M>
  constexpr auto operator()(const I& i, const std::array<tracer, M>& u) const {
    return Step{}(tracer(i), u);
  }
};

/// Forward mode of a step: (c, dc, x, dx) to (c', dc', y, dy), the index's tangent zero.
template <class Step, std::size_t N, std::size_t X, std::size_t Y>
struct jvp_step {
  constexpr std::array<tracer, 2 * (N + Y)> operator()(const tracer& i,
                                                        const std::array<tracer, 2 * (N + X)>& a) const {
    std::array<tracer, N + X> u{}, du{};
    for (std::size_t k = 0; k < N; ++k) {
      u[k] = a[k];
      du[k] = a[N + k];
    }
    for (std::size_t k = 0; k < X; ++k) {
      u[N + k] = a[2 * N + k];
      du[N + k] = a[2 * N + X + k];
    }
    const tracer zero = in_graph(*i.graph, i.graph->constant(0.0));
    const auto yt = calx::jvp(step_call<Step>{}, std::tuple{i, u}, std::tuple{zero, du});
    std::array<tracer, 2 * (N + Y)> out{};
    for (std::size_t k = 0; k < N; ++k) {
      out[k] = tracer(yt.first[k]);
      out[N + k] = tracer(yt.second[k]);
    }
    for (std::size_t k = 0; k < Y; ++k) {
      out[2 * N + k] = tracer(yt.first[N + k]);
      out[2 * N + Y + k] = tracer(yt.second[N + k]);
    }
    return out;
  }
};

/// `ct . Step(i, u)`, whose gradient in `u` is the step's vjp.
template <class Step, std::size_t M, std::size_t K>
struct step_dot {
  template <class I>
  constexpr tracer operator()(const I& i, const std::array<tracer, M>& u, const std::array<tracer, K>& ct) const {
    const std::array<tracer, K> next = Step{}(tracer(i), u);
    tracer s = next[0] * ct[0];
    for (std::size_t k = 1; k < K; ++k) s = s + next[k] * ct[k];
    return s;
  }
};

/// Reverse mode of a step: (c, x, ct_c, ct_y) to (ct_c, ct_x), the cotangents of (c, x).
template <class Step, std::size_t N, std::size_t X, std::size_t Y>
struct vjp_step {
  constexpr std::array<tracer, N + X> operator()(const tracer& i, const std::array<tracer, 2 * N + X + Y>& a) const {
    std::array<tracer, N + X> u{};
    std::array<tracer, N + Y> ct{};
    for (std::size_t k = 0; k < N + X; ++k) u[k] = a[k];
    for (std::size_t k = 0; k < N + Y; ++k) ct[k] = a[N + X + k];
    const auto g = calx::grad(step_dot<Step, N + X, N + Y>{}, calx::argnums<1>)(i, u, ct);
    std::array<tracer, N + X> out{};
    for (std::size_t k = 0; k < N + X; ++k) out[k] = tracer(g[k]);
    return out;
  }
};

/// The loop op: operands (lower, upper, N carries, X per-step inputs of L), results (N
/// final carries, Y per-step outputs of L; with `Keep`, then the carries before every step,
/// a tensor of L * N: the residuals its reverse loop reads).
template <class Step, std::size_t N, std::size_t X = 0, std::size_t Y = 0, std::size_t L = 0, bool Keep = false>
struct loop_op {};
/// Its reverse mode: operands (lower, upper, N carries, X inputs, with `FromKept` the
/// primal loop's tuple node, whose kept carries it reads in place, then N cotangents of the
/// final carries and Y of the outputs), results the cotangents of the carries and inputs.
template <class Step, std::size_t N, std::size_t X = 0, std::size_t Y = 0, std::size_t L = 0, bool FromKept = false>
struct loop_vjp_op {};

/// How many forward-mode layers wrap a step: each derivative of a loop is a loop of a new
/// step type, and op descriptions are made eagerly (an op's rules record its derivatives'
/// ops, whose descriptions are made too), so the rules stop at a fixed order: a loop of a
/// step of order 0 or 1 has rules, a reverse loop of a step of order 0 has: enough for
/// second derivatives in any mode (jacfwd of jacfwd, hessian, grad of grad). Beyond, a
/// transform says the op has no rule.
template <class Step>
inline constexpr int step_order_v = 0;
template <class Step, std::size_t N, std::size_t X, std::size_t Y>
inline constexpr int step_order_v<jvp_step<Step, N, X, Y>> = 1 + step_order_v<Step>;

/// Records `Op` on operand ids `in` and writes its `n` results' ids to `out` (a loop op is
/// a tuple node whatever its result count: see `emit_op`).
template <class Op>
constexpr void record_loop(graph& g, int* in, int* out, std::size_t n) {
  const int id = emit_op(g, ref_of<Op>(), in);
  for (std::size_t k = 0; k < n; ++k) out[k] = g.get(id, static_cast<int>(k));
}

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

template <class Step, std::size_t N, std::size_t X, std::size_t Y, std::size_t L>
using jvp_loop_t = loop_op<jvp_step<Step, N, X, Y>, 2 * N, 2 * X, 2 * Y, L>;
template <class Step, std::size_t N, std::size_t X, std::size_t Y, std::size_t L>
using jvp_vjp_loop_t = loop_vjp_op<jvp_step<Step, N, X, Y>, 2 * N, 2 * X, 2 * Y, L>;

/// The derivative rules of `loop_op`, up to order 2 (see `step_order_v`). Operands: 0 and
/// 1 the bounds (integers: no tangent, no cotangent), then carries c, inputs x; results:
/// carries, then outputs y (and the kept carries, whose tangent and cotangent are never
/// read: the reverse loop's own rules recompute from c and x).
template <class Step, std::size_t N, std::size_t X, std::size_t Y, std::size_t L, bool Keep,
          bool = (step_order_v<Step> < 2)>
struct loop_rules {};
template <class Step, std::size_t N, std::size_t X, std::size_t Y, std::size_t L, bool Keep>
struct loop_rules<Step, N, X, Y, L, Keep, true> {
  /// Tangents of the results: the loop over (c, dc) and (x, dx) under the body's jvp.
  static constexpr void jvp_ids(graph& g, const int*, const int* x, const int* t, int* out) {
    if constexpr (Keep) out[N + Y] = -1;
    if (!any_nonzero(t + 2, N + X)) {
      for (std::size_t k = 0; k < N + Y; ++k) out[k] = -1;
      return;
    }
    operand_list in(static_cast<int>(2 + 2 * (N + X)));
    in.add(x[0]);
    in.add(x[1]);
    in.add(g, x + 2, x + 2, N);
    in.add(g, t + 2, x + 2, N);
    in.add(g, x + 2 + N, x + 2 + N, X);
    in.add(g, t + 2 + N, x + 2 + N, X);
    int res[2 * (N + Y)] = {};
    record_loop<jvp_loop_t<Step, N, X, Y, L>>(g, in.ids.data(), res, 2 * (N + Y));
    for (std::size_t k = 0; k < N; ++k) out[k] = res[N + k];
    for (std::size_t k = 0; k < Y; ++k) out[N + k] = res[2 * N + Y + k];
  }

  /// Cotangents of the carries and the inputs: the reverse loop. With a length known to the
  /// type (scan), the primal loop is made, in place, the variant that keeps the carries of
  /// every step, and the reverse loop reads them: the forward pass runs once, as JAX's
  /// partial evaluation of scan arranges (the node's other results are the same values).
  static constexpr void vjp_ids(graph& g, const int* ct, const int* y, const int* x, int* out) {
    out[0] = out[1] = -1;
    if (!any_nonzero(ct, N + Y)) {
      for (std::size_t k = 0; k < N + X; ++k) out[2 + k] = -1;
      return;
    }
    if (!g.is_constant(x[0]) || !g.is_constant(x[1]))  // JAX's rule: a reverse loop stores every step's carry
      trace_error("calx::fori_loop: reverse mode needs a trip count known at compile time; this one is "
                  "traced: make lower and upper plain integers (reverse mode stores the carries of every step)");
    constexpr bool kept = L > 0;
    operand_list in(static_cast<int>(2 + 2 * N + X + Y + (kept ? 1 : 0)));
    in.add(x[0]);
    in.add(x[1]);
    in.add(g, x + 2, x + 2, N + X);
    if constexpr (kept) {
      const int loop = g.operand(y[0], 0);  // y are the gets of the primal tuple node
      if constexpr (!Keep) {
        g.nodes[loop].op = ref_of<loop_op<Step, N, X, Y, L, true>>();
        g.nodes[loop].value = g.nodes[loop].op().result_offset(static_cast<int>(N + Y + 1));
      }
      in.add(loop);  // the tuple itself: its kernel reads the kept carries in place, no copy
    }
    in.add(g, ct, y, N + Y);
    record_loop<loop_vjp_op<Step, N, X, Y, L, kept>>(g, in.ids.data(), out + 2, N + X);
  }
};

/// The derivative rules of `loop_vjp_op`, up to order 1. With G(u, ct) = J(u)^T ct (u the
/// carries and inputs) and H(u, du) = (F(u), J du) the jvp loop: G's tangent along
/// (du, dct) is H's vjp at (u, du) on cotangents (dct, ct), its u-part; G's vjp on w is
/// that with (du, dct) = (w, 0), and J w (H's tangent part) for ct. The kept carries are a
/// cache of a function of u: no tangent or cotangent goes through them.
template <class Step, std::size_t N, std::size_t X, std::size_t Y, std::size_t L, bool FromKept,
          bool = (step_order_v<Step> < 1)>
struct loop_vjp_rules {};
template <class Step, std::size_t N, std::size_t X, std::size_t Y, std::size_t L, bool FromKept>
struct loop_vjp_rules<Step, N, X, Y, L, FromKept, true> {
  // Operands: bounds, c (N), x (X), [kept], ct_c (N), ct_y (Y); results: ct of c, of x.
  static constexpr std::size_t c_at = 2, x_at = 2 + N, ct_at = 2 + N + X + (FromKept ? 1 : 0), cty_at = ct_at + N;

  /// The reverse loop of the jvp loop, at (u, du) on cotangents (dct, ct): writes the
  /// u-part of its results (N then X ids) to `out`.
  static constexpr void second_order(graph& g, const int* x, const int* du, const int* dct, int* out) {
    operand_list in(static_cast<int>(2 + 4 * N + 2 * X + 2 * Y));
    in.add(x[0]);
    in.add(x[1]);
    in.add(g, x + c_at, x + c_at, N);      // c
    in.add(g, du, x + c_at, N);            // dc
    in.add(g, x + x_at, x + x_at, X);      // x
    in.add(g, du + N, x + x_at, X);        // dx
    in.add(g, dct, x + ct_at, N);          // dct_c
    in.add(g, x + ct_at, x + ct_at, N);    // ct_c
    in.add(g, dct + N, x + cty_at, Y);     // dct_y
    in.add(g, x + cty_at, x + cty_at, Y);  // ct_y
    int res[2 * (N + X)] = {};
    record_loop<jvp_vjp_loop_t<Step, N, X, Y, L>>(g, in.ids.data(), res, 2 * (N + X));
    for (std::size_t k = 0; k < N; ++k) out[k] = res[k];
    for (std::size_t k = 0; k < X; ++k) out[N + k] = res[2 * N + k];
  }

  static constexpr void jvp_ids(graph& g, const int*, const int* x, const int* t, int* out) {
    if (!any_nonzero(t + c_at, N + X) && !any_nonzero(t + ct_at, N + Y)) {
      for (std::size_t k = 0; k < N + X; ++k) out[k] = -1;
      return;
    }
    int du[N + X], dct[N + Y];
    for (std::size_t k = 0; k < N + X; ++k) du[k] = t[c_at + k];
    for (std::size_t k = 0; k < N + Y; ++k) dct[k] = t[ct_at + k];
    second_order(g, x, du, dct, out);
  }

  static constexpr void vjp_ids(graph& g, const int* w, const int*, const int* x, int* out) {
    for (std::size_t k = 0; k < 2 * N + X + Y + (FromKept ? 1 : 0); ++k) out[2 + k] = -1;
    out[0] = out[1] = -1;
    if (!any_nonzero(w, N + X)) return;
    int zeros[N + Y];
    for (std::size_t k = 0; k < N + Y; ++k) zeros[k] = -1;
    second_order(g, x, w, zeros, out + 2);
    operand_list in(static_cast<int>(2 + 2 * (N + X)));
    in.add(x[0]);
    in.add(x[1]);
    in.add(g, x + c_at, x + c_at, N);
    in.add(g, w, x + c_at, N);
    in.add(g, x + x_at, x + x_at, X);
    in.add(g, w + N, x + x_at, X);
    int res[2 * (N + Y)] = {};
    record_loop<jvp_loop_t<Step, N, X, Y, L>>(g, in.ids.data(), res, 2 * (N + Y));
    for (std::size_t k = 0; k < N; ++k) out[ct_at + k] = res[N + k];
    for (std::size_t k = 0; k < Y; ++k) out[cty_at + k] = res[2 * N + Y + k];
  }
};

/// A loop op's result shapes: N scalars, then 1-D tensors of L, then (kept carries) one of
/// L * N.
template <std::size_t N, std::size_t Y, std::size_t L>
constexpr shape loop_result_dims(int k) {
  shape s{};
  if (k >= static_cast<int>(N)) {
    s.rank = 1;
    s.extent[0] = static_cast<std::int32_t>(k < static_cast<int>(N + Y) ? L : L * N);
  }
  return s;
}

}  // namespace detail

/// One IR node (printed `fori_loop`, or `scan` when it has per-step values; its body
/// nested): the loop runs on numbers, and on SIMD lanes under vmap.
template <class Step, std::size_t N, std::size_t X, std::size_t Y, std::size_t L, bool Keep>
struct op_traits<detail::loop_op<Step, N, X, Y, L, Keep>> : detail::loop_rules<Step, N, X, Y, L, Keep> {
  static constexpr const char* name = X + Y == 0 ? "fori_loop" : "scan";
  static constexpr int arity = static_cast<int>(2 + N + X);
  static constexpr int outputs = static_cast<int>(N + Y + (Keep ? 1 : 0));
  static constexpr bool broadcasts = false;
  static constexpr auto result_dims = &detail::loop_result_dims<N, Y, L>;
  using source = detail::step_source<Step, N + X>;

  // Operands: bounds, c (N), xs (X tensors); results: c (N), ys (Y tensors), [kept].
  static constexpr auto kernel = []<class V>(const std::array<detail::lane_values<V>, 2 + N + X>& in,
                                            const detail::lane_values<V>& out) {
    V c[N];
    detail::each<N>([&](std::size_t k) { c[k] = in[2 + k][0]; });
    const V lo = in[0][0], hi = in[1][0];
    detail::loop_forward<detail::program_for_v<source, V>, N, X, Y, L, Keep>(c, in.data() + 2 + N, out, N, N + Y * L,
                                                                            detail::trip_range_of(lo, hi), lo, hi);
    detail::each<N>([&](std::size_t k) { out.set(k, c[k]); });
  };
  template <class T>
  static void results(const T* const* in, T* out) {
    detail::run_results<T, 2 + N + X>(kernel, in, out);
  }
  template <class T>
  static void results_lanes(const T* const* in, const bool* batched, T* out, int lanes) {
    detail::run_results_lanes<T, 2 + N + X>(kernel, in, batched, out, lanes);
  }

  static const char* parameters(bool single) {
    static const std::string text[2] = {detail::nested_programs_text<source>({"body"}, false),
                                        detail::nested_programs_text<source>({"body"}, true)};
    return text[single ? 1 : 0].c_str();
  }
};

/// The reverse loop (printed `fori_loop_vjp` or `scan_vjp`): runs the body's vjp backwards
/// over the kept carries, or over those of a forward pass of its own.
template <class Step, std::size_t N, std::size_t X, std::size_t Y, std::size_t L, bool FromKept>
struct op_traits<detail::loop_vjp_op<Step, N, X, Y, L, FromKept>>
    : detail::loop_vjp_rules<Step, N, X, Y, L, FromKept> {
  static constexpr const char* name = X + Y == 0 ? "fori_loop_vjp" : "scan_vjp";
  static constexpr std::size_t kept = FromKept ? 1 : 0;
  static constexpr int arity = static_cast<int>(2 + 2 * N + X + Y + kept);
  static constexpr int outputs = static_cast<int>(N + X);
  static constexpr bool broadcasts = false;
  static constexpr auto result_dims = &detail::loop_result_dims<N, X, L>;
  using source = detail::step_source<Step, N + X>;
  using vjp_source = detail::step_source<detail::vjp_step<Step, N, X, Y>, 2 * N + X + Y>;

  // Operands: bounds, c (N), xs (X), [the primal tuple], ct_c (N), ct_ys (Y); results:
  // ct_c, ct_xs.
  static constexpr auto kernel = []<class V>(const std::array<detail::lane_values<V>, 2 + 2 * N + X + Y + kept>& in,
                                            const detail::lane_values<V>& out) {
    constexpr std::size_t ct_at = 2 + N + X + kept;
    V c0[N], ct[N];
    detail::each<N>([&](std::size_t k) {
      c0[k] = in[2 + k][0];
      ct[k] = in[ct_at + k][0];
    });
    const V lo = in[0][0], hi = in[1][0];
    detail::loop_backward<detail::program_for_v<source, V>, detail::program_for_v<vjp_source, V>, N, X, Y, L, FromKept>(
        c0, in.data() + 2 + N, in[2 + N + X].from(N + Y * L), ct, in.data() + ct_at + N, out, N,
        detail::trip_range_of(lo, hi), lo, hi);
    detail::each<N>([&](std::size_t k) { out.set(k, ct[k]); });
  };
  template <class T>
  static void results(const T* const* in, T* out) {
    detail::run_results<T, 2 + 2 * N + X + Y + kept>(kernel, in, out);
  }
  template <class T>
  static void results_lanes(const T* const* in, const bool* batched, T* out, int lanes) {
    detail::run_results_lanes<T, 2 + 2 * N + X + Y + kept>(kernel, in, batched, out, lanes);
  }

  static const char* parameters(bool single) {
    static const std::string text[2] = {
        detail::nested_programs_text<source, vjp_source>({"body", "body_vjp"}, false),
        detail::nested_programs_text<source, vjp_source>({"body", "body_vjp"}, true)};
    return text[single ? 1 : 0].c_str();
  }
};

CALX_END_NAMESPACE

#endif  // CALX_LOOP_OP_HPP
