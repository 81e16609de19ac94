/// @file checkpoint.hpp
/// @brief `calx::checkpoint(f)`: JAX's `jax.checkpoint` (remat). Reverse mode recomputes
/// `f`'s intermediates from its arguments in the backward pass instead of storing them: a
/// vjp's pullback or a linearize map keeps `f`'s arguments only. A policy says what may be
/// stored: `calx::policy::nothing_saveable` (the default) or
/// `calx::policy::everything_saveable` (`f` as it is).
///
/// On traced values a checkpoint is one IR node whose body is `f`'s program (printed
/// nested), run by its own kernel. Its derivatives are checkpoints again, of `f`'s jvp and
/// of `f`'s vjp: the reverse rule's node runs `f` forward and backward together, from the
/// arguments, which is the recomputation.
#ifndef CALX_CHECKPOINT_HPP
#define CALX_CHECKPOINT_HPP

#include <calx/config.hpp>
#include <calx/detail/call/late_call.hpp>
#include <calx/detail/call/trace_source.hpp>
#include <calx/detail/diagnostics.hpp>
#include <calx/detail/exec/evaluate.hpp>
#include <calx/detail/invalid_program.hpp>
#include <calx/detail/passes/replay.hpp>
#include <calx/jvp.hpp>
#include <calx/loop_op.hpp>
#include <calx/op_traits.hpp>
#include <calx/to_string.hpp>
#include <calx/tracer.hpp>
#include <calx/tree.hpp>
#include <calx/vjp.hpp>

#include <xsimd/xsimd.hpp>

#include <array>
#include <cstddef>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

CALX_BEGIN_NAMESPACE

/// What a checkpoint may store for the backward pass (JAX's `jax.checkpoint_policies`).
namespace policy {
/// Store nothing of `f` but its arguments: recompute the rest (the default).
struct nothing_saveable_t {
  explicit nothing_saveable_t() = default;
};
inline constexpr nothing_saveable_t nothing_saveable{};
/// Store everything: `f` as if not checkpointed.
struct everything_saveable_t {
  explicit everything_saveable_t() = default;
};
inline constexpr everything_saveable_t everything_saveable{};
}  // namespace policy

namespace detail {

template <class P>
concept checkpoint_policy =
    std::is_same_v<P, policy::nothing_saveable_t> || std::is_same_v<P, policy::everything_saveable_t>;

/// The checkpoint op: `G` (stateless) on arguments `Args...` (structures of traced values,
/// tensors whole). Operands: the arguments' values; results: those of `G`'s result.
template <class G, class... Args>
struct remat_op {};

template <class... T>
inline constexpr std::size_t values_of_v = (std::size_t{0} + ... + value_count_v<T>);

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

/// `t` without its first element.
template <class First, class... Rest>
constexpr std::tuple<Rest...> drop_first(const std::tuple<First, Rest...>& t) {
  return std::apply([](const First&, const Rest&... r) { return std::tuple<Rest...>{r...}; }, t);
}

/// `all...` split after its first `N`: `f(std::tuple{first N}, std::tuple{rest})`.
template <std::size_t N, class F, class... T>
constexpr auto split_at(const F& f, const T&... all) {
  using types = std::tuple<T...>;  // not deduced: a tuple of one tuple stays one
  const std::tuple<const T&...> t{all...};
  return [&]<std::size_t... I, std::size_t... J>(std::index_sequence<I...>, std::index_sequence<J...>) {
    return f(std::tuple<std::tuple_element_t<I, types>...>{std::get<I>(t)...},
             std::tuple<std::tuple_element_t<N + J, types>...>{std::get<N + J>(t)...});
  }(std::make_index_sequence<N>{}, std::make_index_sequence<sizeof...(T) - N>{});
}

/// `G` with a first argument it ignores: a traced scalar, so that the transforms below see
/// they are inside a trace when `G`'s arguments are tensors only (whose type does not say).
template <class G>
struct anchored {
  template <class S, class... T>
  constexpr auto operator()(const S&, const T&... a) const {
    return make_stateless<G>()(a...);
  }
};
template <class... T>
constexpr tracer anchor_for(const T&... a) {
  graph* g = common_graph_of(a...);
  return in_graph(*g, g->constant(0.0));
}

/// `G`'s forward mode as a function: (arguments, tangents) to (result, its tangent).
template <class G, class... Args>
struct remat_jvp {
  template <class... T>
  constexpr auto operator()(const T&... all) const {
    const tracer s = anchor_for(all...);
    return split_at<sizeof...(Args)>(
        [&](const auto& x, const auto& t) {
          const auto [y, dy] =
              calx::jvp(anchored<G>{}, std::tuple_cat(std::tuple{s}, x), std::tuple_cat(std::tuple{s}, t));
          return std::tuple{y, dy};
        },
        all...);
  }
};
/// `G`'s reverse mode as a function: (arguments, the result's cotangent) to the
/// arguments' cotangents. Tracing it traces `G` forward and backward: the recomputation.
template <class G, class... Args>
struct remat_vjp {
  template <class... T>
  constexpr auto operator()(const T&... all) const {
    const tracer s = anchor_for(all...);
    return split_at<sizeof...(Args)>(
        [&](const auto& x, const auto& ct) {
          const auto pb = std::apply([&](const auto&... a) { return calx::vjp(anchored<G>{}, s, a...).second; }, x);
          return drop_first(pb(std::get<0>(ct)));
        },
        all...);
  }
};

/// How many transforms wrap the function of a checkpoint: 0 for `f`, 1 for its
/// derivatives, whose own derivatives are inlined (see `emit_derivative`), so the op types
/// stop there, whatever the order of differentiation.
template <class G>
inline constexpr int remat_order_v = 0;
template <class G, class... A>
inline constexpr int remat_order_v<remat_jvp<G, A...>> = 1 + remat_order_v<G>;
template <class G, class... A>
inline constexpr int remat_order_v<remat_vjp<G, A...>> = 1 + remat_order_v<G>;

/// Printed names: the checkpoint of `f`, and its derivatives.
template <class G>
inline constexpr const char* remat_name_v = "checkpoint";
template <class G, class... A>
inline constexpr const char* remat_name_v<remat_jvp<G, A...>> = "checkpoint_jvp";
template <class G, class... A>
inline constexpr const char* remat_name_v<remat_vjp<G, A...>> = "checkpoint_vjp";

template <class G, class... Args>
using remat_source = trace_source<G, Args...>;
template <class G, class... Args>
using remat_result_t = rebind_t<typename remat_source<G, Args...>::output_tree, tracer>;

template <class G, class... Args>
constexpr shape remat_result_dims(int k) {
  const auto& p = materialized<remat_source<G, Args...>>::value;
  return p.nodes[p.outputs[static_cast<std::size_t>(k)]].dims;
}

/// A derivative of a checkpoint of `G` as the function `H` on `HArgs...`, on operand ids
/// `in`, its `count` results to `out`: a checkpoint of `H` (first derivatives); past that,
/// `H`'s program inlined (second derivatives are computed, not rematerialized: a node
/// type per derivative would compile four more programs with their kernels).
template <class G, class H, class... HArgs>
constexpr void emit_derivative(graph& g, const int* in, int* out, std::size_t count) {
  if constexpr (remat_order_v<G> == 0) {
    id_buffer ids(static_cast<int>(values_of_v<HArgs...>));
    for (std::size_t k = 0; k < values_of_v<HArgs...>; ++k) ids[static_cast<int>(k)] = in[k];
    record_loop<remat_op<H, HArgs...>>(g, ids.data(), out, count);
  } else {
    const std::vector<int> res = replay(materialized<remat_source<H, HArgs...>>::value, g,
                                        std::vector<int>(in, in + values_of_v<HArgs...>));
    for (std::size_t k = 0; k < count; ++k) out[k] = res[k];
  }
}

template <class G, class... Args>
struct remat_rules {
  static constexpr std::size_t n = values_of_v<Args...>;
  using R = remat_result_t<G, Args...>;
  static constexpr std::size_t m = value_count_v<R>;

  /// The tangents: the checkpoint of `G`'s jvp, on the arguments and their tangents.
  static constexpr void jvp_ids(graph& g, const int*, const int* x, const int* t, int* out) {
    if (!any_nonzero(t, n)) {
      for (std::size_t k = 0; k < m; ++k) out[k] = -1;
      return;
    }
    operand_list in(static_cast<int>(2 * n));
    in.add(g, x, x, n);
    in.add(g, t, x, n);
    int res[2 * m] = {};
    emit_derivative<G, remat_jvp<G, Args...>, Args..., Args...>(g, in.ids.data(), res, 2 * m);
    for (std::size_t k = 0; k < m; ++k) out[k] = res[m + k];
  }
  /// The cotangents: the checkpoint of `G`'s vjp, on the arguments and the results'
  /// cotangents: it reads the arguments only, and recomputes the rest.
  static constexpr void vjp_ids(graph& g, const int* ct, const int* y, const int* x, int* out) {
    if (!any_nonzero(ct, m)) {
      for (std::size_t k = 0; k < n; ++k) out[k] = -1;
      return;
    }
    operand_list in(static_cast<int>(n + m));
    in.add(g, x, x, n);
    in.add(g, ct, y, m);
    emit_derivative<G, remat_vjp<G, Args...>, Args..., R>(g, in.ids.data(), out, n);
  }
};

/// Up to 64 KiB of values on the stack, more on the heap (a checkpoint of large tensors).
template <class V, std::size_t N>
using value_buffer = std::conditional_t<(N * sizeof(V) > (std::size_t{1} << 16)), std::vector<V>, std::array<V, N>>;
template <class Buffer>
Buffer make_buffer(std::size_t n) {
  if constexpr (requires { Buffer(n); })
    return Buffer(n);
  else
    return Buffer{};
}

/// Runs program `P` (values `V`) with input k's elements read by `read(k, e)` and output
/// value o (flat) given to `write(o, v)`.
template <const auto& P, class V, class Read, class Write>
void run_program(const Read& read, const Write& write) {
  using IRT = std::remove_cvref_t<decltype(P)>;
  auto in = make_buffer<value_buffer<V, IRT::input_count == 0 ? 1 : IRT::input_count>>(IRT::input_count);
  auto out = make_buffer<value_buffer<V, IRT::output_count == 0 ? 1 : IRT::output_count>>(IRT::output_count);
  std::array<const V*, IRT::input_leaves == 0 ? 1 : IRT::input_leaves> ip{};
  std::array<V*, IRT::output_leaves == 0 ? 1 : IRT::output_leaves> op{};
  for (std::size_t k = 0; k < IRT::input_leaves; ++k) {
    ip[k] = in.data() + P.input_offset[k];
    for (std::size_t e = P.input_offset[k]; e < P.input_offset[k + 1]; ++e) in[e] = read(k, e - P.input_offset[k]);
  }
  for (std::size_t o = 0; o < IRT::output_leaves; ++o) op[o] = out.data() + P.output_offset[o];
  evaluate<P>(ip.data(), op.data());
  for (std::size_t o = 0; o < IRT::output_count; ++o) write(o, out[o]);
}

}  // namespace detail

/// One IR node (printed `checkpoint`, or `checkpoint_jvp` / `checkpoint_vjp` for its
/// derivatives; its body nested).
template <class G, class... Args>
struct op_traits<detail::remat_op<G, Args...>> : detail::remat_rules<G, Args...> {
  using source = detail::remat_source<G, Args...>;
  static constexpr const char* name = detail::remat_name_v<G>;
  static constexpr int arity = static_cast<int>(detail::values_of_v<Args...>);
  static constexpr int outputs = static_cast<int>(detail::value_count_v<typename source::output_tree>);
  static constexpr bool broadcasts = false;
  static constexpr auto result_dims = &detail::remat_result_dims<G, Args...>;

  // Operands in place, results to the tuple's values: `G`'s program, as one call.
  template <class T>
  static void results(const T* const* in, T* out) {
    constexpr const auto& p = detail::program_for_v<source, T>;
    std::array<T*, outputs> o{};
    for (std::size_t k = 0; k < o.size(); ++k) o[k] = out + p.output_offset[k];
    detail::evaluate<p>(in, o.data());
  }
  // A SIMD group: the program on batches when the group is one batch wide, else lane by
  // lane (another architecture's executor).
  template <class T>
  static void results_lanes(const T* const* in, const bool* batched, T* out, int lanes) {
    using B = xsimd::batch<T>;
    const auto n = static_cast<std::size_t>(lanes);
    if (n == B::size) {
      detail::run_program<detail::program_for_v<source, B>, B>(
          [&](std::size_t k, std::size_t e) { return batched[k] ? B::load_unaligned(in[k] + e * n) : B(in[k][e]); },
          [&](std::size_t o, const B& v) { v.store_unaligned(out + o * n); });
      return;
    }
    for (std::size_t l = 0; l < n; ++l)
      detail::run_program<detail::program_for_v<source, T>, T>(
          [&](std::size_t k, std::size_t e) { return batched[k] ? in[k][e * n + l] : in[k][e]; },
          [&](std::size_t o, T v) { out[o * n + l] = v; });
  }

  static const char* parameters(bool single) {
    static const std::string text[2] = {detail::nested_programs_text<source>({"body"}, false),
                                        detail::nested_programs_text<source>({"body"}, true)};
    return text[single ? 1 : 0].c_str();
  }
};

/// `f` checkpointed under policy `P`: a stateless callable, so transforms take it.
template <class F, class P>
struct checkpointed {
  template <class... A>
  constexpr auto operator()(const A&... a) const {
    constexpr bool scalars = (detail::any_leaf_v<A, detail::is_tracer> || ...);
    constexpr bool tensors = (detail::holds_whole_node<A>() || ...);
    if constexpr ((!scalars && !tensors) || std::is_same_v<P, policy::everything_saveable_t>) {
      return detail::make_stateless<F>()(a...);
    } else {
      constexpr bool reals = !(detail::has_integer_v<A> || ...) && !(detail::has_batch_v<A> || ...);
      static_assert(reals, CALX_MSG_CHECKPOINT_ARGUMENTS);
      if constexpr (reals) {
        // Tensors are traced or not by value, not by type: numbers run `f` as it is.
        if constexpr (!scalars)
          if (!(detail::holds_traced_tensor(a) || ...)) return detail::make_stateless<F>()(a...);
        return record(a...);
      } else {
        return detail::invalid_program{};
      }
    }
  }

 private:
  template <class... A>
  static constexpr auto record(const A&... a) {
    using Op = detail::remat_op<F, detail::rebind_t<A, tracer>...>;
    using R = detail::remat_result_t<F, detail::rebind_t<A, tracer>...>;
    constexpr std::size_t m = detail::value_count_v<R>;
    detail::graph* g = detail::common_graph_of(a...);
    const auto x = detail::flatten_as<tracer>(g, a...);
    constexpr std::size_t n = std::tuple_size_v<std::remove_cvref_t<decltype(x)>>;
    int in[n] = {};
    for (std::size_t k = 0; k < n; ++k) in[k] = x[k].id;
    std::array<int, m> res{};
    detail::record_loop<Op>(*g, in, res.data(), m);
    std::array<tracer, m> out{};
    for (std::size_t k = 0; k < m; ++k) out[k] = detail::in_graph(*g, res[k]);
    return detail::unflatten<R>(out);
  }
};

struct checkpoint_fn {
  /// `f` whose intermediates the backward pass recomputes; `policy` says what it may store.
  template <class F, class P = policy::nothing_saveable_t>
  constexpr auto operator()(const F&, const P& = P{}) const {
    constexpr bool known = detail::checkpoint_policy<P>;
    static_assert(known, CALX_MSG_CHECKPOINT_POLICY);
    constexpr bool stateless = detail::stateless_v<F>;
    static_assert(!known || stateless, CALX_MSG_CAPTURES_IN("checkpoint"));
    if constexpr (known && stateless)
      return checkpointed<F, P>{};
    else
      return detail::invalid_program{};
  }
};
/// `calx::checkpoint(f)`, `calx::checkpoint(f, calx::policy::everything_saveable)`: see
/// checkpoint_fn.
inline constexpr checkpoint_fn checkpoint{};

CALX_END_NAMESPACE

#endif  // CALX_CHECKPOINT_HPP
