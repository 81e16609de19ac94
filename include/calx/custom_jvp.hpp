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
}  // namespace detail

/// One node of the IR (printed `custom_jvp`). Its value is `fwd`'s result; forward mode
/// calls the jvp closure; reverse mode transposes the closure (it is linear in the tangents:
/// its vjp with respect to them, at any point, is the transpose), as JAX does.
template <class Fwd, class... Args>
struct op_traits<detail::custom_jvp_op<Fwd, Args...>> : detail::custom_op_traits<Fwd, Args...> {
  static constexpr const char* name = "custom_jvp";
  static constexpr detail::rule_source vjp_from = detail::rule_source::transposed;

  static constexpr void jvp_ids(detail::graph& g, const int*, const int* x, const int* t, int* out_t) {
    const auto r = std::apply(detail::make_stateless<Fwd>(), detail::args_of_ids<false, Args...>(g, x));
    const auto tangent = std::apply(r.second, detail::args_of_ids<true, Args...>(g, t));  // zeros as 0, like JAX
    int* p = out_t;
    detail::leaf_ids(g, tangent, p);
  }

  static constexpr void vjp_ids(detail::graph& g, const int* ct, const int*, const int* x, int* out_ct) {
    const auto& closure = detail::ir_v<detail::jvp_closure_source<Fwd, Args...>>;
    using IR = std::remove_cvref_t<decltype(closure)>;
    constexpr auto n = static_cast<std::size_t>(detail::custom_op_traits<Fwd, Args...>::arity);
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

/// custom_jvp: its op, and its checks in order, each with its message: the forward (shared
/// with custom_vjp), then the jvp closure, which must be linear in the tangents.
struct custom_jvp_kind {
  template <class Fwd, class... Args>
  using op = custom_jvp_op<Fwd, Args...>;
  CALX_CUSTOM_RULE_CHECKS("custom_jvp", "jvp")

  template <class Fwd, class... Args>
  static constexpr bool check_closure() {
    using J = std::remove_cvref_t<typename fwd_result_t<Fwd, Args...>::second_type>;
    constexpr bool takes_tangents = std::is_invocable_v<const J&, const Args&...>;
    static_assert(takes_tangents, CALX_MSG_CUSTOM_JVP_ARGS);
    if constexpr (takes_tangents) {
      using T = std::remove_cvref_t<std::invoke_result_t<const J&, const Args&...>>;
      constexpr bool leaves_ok = rule_leaves_match<T, custom_out_t<Fwd, Args...>>();
      static_assert(leaves_ok, CALX_MSG_CUSTOM_JVP_LEAVES);
      if constexpr (leaves_ok) {
        constexpr bool linear = linear_in_inputs(ir_v<jvp_closure_source<Fwd, Args...>>,
                                                 (std::size_t{0} + ... + leaf_count_v<Args>));
        static_assert(linear, CALX_MSG_CUSTOM_JVP_NOT_LINEAR);
        return linear;
      }
    }
    return false;
  }
};

}  // namespace detail

/// The function object behind `calx::custom_jvp`.
using custom_jvp_fn = detail::custom_fn<detail::custom_jvp_kind>;

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
