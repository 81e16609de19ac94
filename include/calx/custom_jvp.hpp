/// @file custom_jvp.hpp
/// @brief `calx::custom_jvp(fwd)`: a function with its own forward-mode rule, written as a
/// forward that returns its result together with a jvp closure; reverse mode transposes it.
#ifndef CALX_CUSTOM_JVP_HPP
#define CALX_CUSTOM_JVP_HPP

#include <calx/config.hpp>
#include <calx/detail/call/custom_rule.hpp>
#include <calx/detail/call/trace_source.hpp>
#include <calx/detail/call/transform_support.hpp>
#include <calx/detail/diagnostics.hpp>
#include <calx/detail/ir/graph.hpp>
#include <calx/detail/ir/ir.hpp>
#include <calx/detail/ir/op_info.hpp>
#include <calx/detail/passes/autodiff.hpp>
#include <calx/detail/passes/replay.hpp>
#include <calx/op_traits.hpp>
#include <calx/ops/reduction.hpp>
#include <calx/tracer.hpp>
#include <calx/tree.hpp>

#include <cstddef>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

CALX_BEGIN_NAMESPACE

namespace detail {
/// The op a custom_jvp function records on traced arguments of structures `Args...`.
template <class Fwd, class... Args>
struct custom_jvp_op {};

/// The jvp closure as a function of primals and tangents: (x, t) -> fwd(x...).second(t...),
/// with x and t tuples of the arguments. Traced once, it is what reverse mode transposes and
/// what the linearity check reads.
template <class Fwd>
struct jvp_closure_fn {
  template <class X, class T>
  constexpr auto operator()(const X& x, const T& t) const {
    const auto r = std::apply(make_stateless<Fwd>(), x);
    return std::apply(r.second, t);
  }
};

template <class Fwd, class... Args>
using jvp_closure_source = trace_source<jvp_closure_fn<Fwd>, std::tuple<Args...>, std::tuple<Args...>>;

/// Whether IR `r` is linear in its inputs from `first` on (the tangents): every value that
/// depends on them comes from ops linear in those operands (op_info::linear_in), masks do not
/// depend on them, and every output depends on them or is the constant 0.
template <class IR>
constexpr bool linear_in_inputs(const IR& r, std::size_t first) {
  std::vector<char> dep(IR::size, 0);
  for (std::size_t j = 0; j < IR::size; ++j) {
    const node& n = r.nodes[j];
    if (n.is_input()) {
      dep[j] = n.index() >= first ? 1 : 0;
      continue;
    }
    unsigned d = 0;
    int count = 0;
    for (int i = 0; i < n.arity; ++i)
      if (dep[r.operand(j, i)]) {
        d |= 1u << i;
        ++count;
      }
    if (count == 0) continue;
    const op_info op = n.op();
    if (n.kind == value_kind::boolean || (d & ~op.linear_in) != 0 || (count > 1 && !op.jointly_linear)) return false;
    dep[j] = 1;
  }
  for (int o : r.outputs)
    if (!dep[o] && !(r.nodes[o].is_constant() && r.nodes[o].value == 0.0)) return false;
  return true;
}

template <class Fwd, class... Args>
using custom_jvp_out_t = std::remove_cvref_t<decltype(std::declval<fwd_result_t<Fwd, Args...>>().first)>;
}  // namespace detail

/// One node of the IR (printed `custom_jvp`). Its value is `fwd`'s result; forward mode
/// calls the jvp closure; reverse mode transposes the closure (it is linear in the tangents:
/// its vjp with respect to them, at any point, is the transpose), as JAX does.
template <class Fwd, class... Args>
struct op_traits<detail::custom_jvp_op<Fwd, Args...>> {
  using out = detail::custom_jvp_out_t<Fwd, Args...>;
  static constexpr const char* name = "custom_jvp";
  static constexpr int arity = static_cast<int>((std::size_t{0} + ... + detail::leaf_count_v<Args>));
  static constexpr int outputs = static_cast<int>(detail::leaf_count_v<out>);
  static constexpr detail::rule_source vjp_from = detail::rule_source::transposed;

  static constexpr void decompose_ids(detail::graph& g, const int* x, int* y) {
    const auto r = std::apply(detail::make_stateless<Fwd>(), detail::args_of_ids<false, Args...>(g, x));
    int* p = y;
    detail::leaf_ids(g, r.first, p);
  }

  static constexpr void jvp_ids(detail::graph& g, const int*, const int* x, const int* t, int* out_t) {
    const auto r = std::apply(detail::make_stateless<Fwd>(), detail::args_of_ids<false, Args...>(g, x));
    const auto tangent = std::apply(r.second, detail::args_of_ids<true, Args...>(g, t));  // zeros as 0, like JAX
    int* p = out_t;
    detail::leaf_ids(g, tangent, p);
  }

  static constexpr void vjp_ids(detail::graph& g, const int* ct, const int*, const int* x, int* out_ct) {
    const auto& closure = detail::ir_v<detail::jvp_closure_source<Fwd, Args...>>;
    using IR = std::remove_cvref_t<decltype(closure)>;
    constexpr auto n = static_cast<std::size_t>(arity);
    // The closure at (x, t = 0): its transpose does not depend on t (it is linear in t). A
    // tangent is per sample where its primal is (its cotangent must not be summed over a
    // runtime batch), so the zero is broadcast like the primal.
    std::vector<int> in(2 * n, -1);
    for (std::size_t i = 0; i < n; ++i) {
      in[i] = x[i];
      in[n + i] = detail::emit<broadcast_op>(tracer{&g, g.constant(0.0)}, tracer{&g, x[i]}).id;
    }
    const std::vector<int> p = detail::replay_all(closure, g, in);
    std::vector<int> seed(IR::output_leaves, -1);  // scalars: one per flat output
    for (std::size_t o = 0; o < IR::output_leaves; ++o) seed[o] = ct[o];
    std::vector<char> wrt(2 * n, 0);
    for (std::size_t i = 0; i < n; ++i) wrt[n + i] = 1;
    const std::vector<int> cts = detail::pull_cotangents(closure, g, p, seed, wrt);
    for (std::size_t i = 0; i < n; ++i) out_ct[i] = cts[n + i];
  }
};

namespace detail {

/// The checks of a custom_jvp forward on traced arguments, in order, each with its message.
template <class Fwd, class... Args>
constexpr bool diagnose_custom_jvp() {
  constexpr bool callable = std::is_invocable_v<const Fwd&, const Args&...>;
  static_assert(callable, CALX_MSG_CUSTOM_CALLABLE("custom_jvp"));
  if constexpr (callable) {
    using R = fwd_result_t<Fwd, Args...>;
    constexpr bool pair = is_pair_v<R>;
    static_assert(pair, CALX_MSG_CUSTOM_PAIR("custom_jvp", "jvp"));
    if constexpr (pair) {
      using Out = std::remove_cvref_t<typename R::first_type>;
      constexpr bool traced_out = traced_structure<Out>();
      static_assert(traced_out, CALX_MSG_CUSTOM_RESULT("custom_jvp"));
      if constexpr (traced_out) {
        using J = std::remove_cvref_t<typename R::second_type>;
        constexpr bool takes_tangents = std::is_invocable_v<const J&, const Args&...>;
        static_assert(takes_tangents, CALX_MSG_CUSTOM_JVP_ARGS);
        if constexpr (takes_tangents) {
          using T = std::remove_cvref_t<std::invoke_result_t<const J&, const Args&...>>;
          constexpr bool leaves_ok = rule_leaves_match<T, Out>();
          static_assert(leaves_ok, CALX_MSG_CUSTOM_JVP_LEAVES);
          if constexpr (leaves_ok) {
            constexpr bool linear = linear_in_inputs(ir_v<jvp_closure_source<Fwd, Args...>>,
                                                     (std::size_t{0} + ... + leaf_count_v<Args>));
            static_assert(linear, CALX_MSG_CUSTOM_JVP_NOT_LINEAR);
            return linear;
          }
        }
      }
    }
  }
  return false;
}

/// A custom_jvp function: stateless (its forward is), so transforms trace it like any
/// function.
template <class Fwd>
struct custom_jvp_function {
  using fwd_type = Fwd;
  /// On traced arguments: one custom_jvp node. On plain numbers: the forward's result (the
  /// jvp closure is dropped).
  template <class... A>
  constexpr auto operator()(const A&... a) const {
    constexpr bool no_tensor = !(holds_whole_node<A>() || ...);
    static_assert(no_tensor, CALX_MSG_CUSTOM_TENSOR("custom_jvp"));
    if constexpr (!no_tensor) {
      return make_stateless<Fwd>()(a...).first;  // reported: the forward's value stands in, no follow-on error
    } else if constexpr ((contains_tracer<A>() || ...)) {
      if constexpr (diagnose_custom_jvp<Fwd, rebind_t<A, tracer>...>()) {
        using Op = custom_jvp_op<Fwd, rebind_t<A, tracer>...>;
        return emit_custom<Op, custom_jvp_out_t<Fwd, rebind_t<A, tracer>...>>(a...);
      } else {
        return invalid_program{};
      }
    } else {
      return make_stateless<Fwd>()(a...).first;
    }
  }
};

}  // namespace detail

/// The function object behind `calx::custom_jvp`.
struct custom_jvp_fn {
  template <class Fwd>
  constexpr auto operator()(const Fwd&) const {
    constexpr bool stateless = detail::stateless_v<Fwd>;
    static_assert(stateless, CALX_MSG_CAPTURES_IN("custom_jvp"));
    if constexpr (stateless)
      return detail::custom_jvp_function<Fwd>{};
    else
      return detail::invalid_program{};
  }
};

/// `calx::custom_jvp(fwd)`: `fwd(args...)` returns `std::pair{result, jvp}`, where
/// `jvp(t...)` takes one tangent per argument (with the argument's structure) and returns
/// the result's tangent. Forward mode (jvp, jacfwd, linearize) uses the closure; reverse mode
/// transposes it, so it must be linear in the tangents (checked at compile time). On plain
/// numbers the function returns `fwd`'s result.
///
/// Example: a log(1 + e^x) whose derivative stays finite for large x:
/// `constexpr auto log1pexp = calx::custom_jvp([](auto x) {
///    auto y = calx::where(x > 30.0, x, calx::log1p(calx::exp(calx::where(x > 30.0, 0.0, x))));
///    return std::pair{y, [=](auto t) { return t * calx::sigmoid(x); }}; });`
inline constexpr custom_jvp_fn custom_jvp{};

CALX_END_NAMESPACE

#endif // CALX_CUSTOM_JVP_HPP
