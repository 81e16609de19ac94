/// @file custom_vjp.hpp
/// @brief `calx::custom_vjp(fwd)`: a function with its own reverse-mode rule, written as a
/// forward that returns its result together with a backward closure.
#ifndef CALX_CUSTOM_VJP_HPP
#define CALX_CUSTOM_VJP_HPP

#include <calx/config.hpp>
#include <calx/detail/call/custom_rule.hpp>
#include <calx/detail/call/trace_source.hpp>
#include <calx/detail/call/transform_support.hpp>
#include <calx/detail/diagnostics.hpp>
#include <calx/detail/ir/graph.hpp>
#include <calx/detail/ir/op_info.hpp>
#include <calx/op_traits.hpp>
#include <calx/tracer.hpp>
#include <calx/tree.hpp>

#include <cstddef>
#include <tuple>
#include <type_traits>
#include <utility>

CALX_BEGIN_NAMESPACE

namespace detail {
/// The op a custom_vjp function records on traced arguments of structures `Args...`.
template <class Fwd, class... Args>
struct custom_vjp_op {};
}  // namespace detail

/// One node of the IR (printed `custom_vjp`). Its value is `fwd`'s result (the
/// decomposition, which forward mode and vmap transform); reverse mode calls the backward
/// closure, traced in the pass's own graph, so its captures are recomputed or become the
/// residuals of a pullback like any other value.
template <class Fwd, class... Args>
struct op_traits<detail::custom_vjp_op<Fwd, Args...>> : detail::custom_op_traits<Fwd, Args...> {
  using typename detail::custom_op_traits<Fwd, Args...>::out;
  static constexpr const char* name = "custom_vjp";
  static constexpr detail::rule_source vjp_from = detail::rule_source::own;

  static constexpr void vjp_ids(detail::graph& g, const int* ct, const int*, const int* x, int* out_ct) {
    const auto args = detail::args_of_ids<false, Args...>(g, x);
    const auto r = std::apply(detail::make_stateless<Fwd>(), args);
    const auto cts = r.second(detail::tree_of_ids<out, true>(g, ct));  // zeros as 0: the closure gets values
    int* p = out_ct;
    std::apply([&](const auto&... c) { (detail::leaf_ids(g, c, p), ...); }, cts);
  }
};

namespace detail {

/// custom_vjp: its op, and its checks in order, each with its message: the forward (shared
/// with custom_jvp), then the backward closure.
struct custom_vjp_kind {
  template <class Fwd, class... Args>
  using op = custom_vjp_op<Fwd, Args...>;
  CALX_CUSTOM_RULE_CHECKS("custom_vjp", "backward")

  template <class Fwd, class... Args>
  static constexpr bool check_closure() {
    using Out = custom_out_t<Fwd, Args...>;
    using B = std::remove_cvref_t<typename fwd_result_t<Fwd, Args...>::second_type>;
    constexpr bool takes_ct = std::is_invocable_v<const B&, const Out&>;
    static_assert(takes_ct, CALX_MSG_CUSTOM_VJP_BACKWARD_ARGS);
    if constexpr (takes_ct) {
      using C = std::remove_cvref_t<std::invoke_result_t<const B&, const Out&>>;
      constexpr bool count_ok = is_tuple_v<C> && [] {
        if constexpr (is_tuple_v<C>)
          return std::tuple_size_v<C> == sizeof...(Args);
        else
          return false;
      }();
      static_assert(count_ok, CALX_MSG_CUSTOM_VJP_COUNT);
      if constexpr (count_ok) {
        constexpr bool leaves_ok = []<std::size_t... I>(std::index_sequence<I...>) {
          return (rule_leaves_match<std::remove_cvref_t<std::tuple_element_t<I, C>>, Args>() && ...);
        }(std::index_sequence_for<Args...>{});
        static_assert(leaves_ok, CALX_MSG_CUSTOM_VJP_LEAVES);
        return leaves_ok;
      }
    }
    return false;
  }
};

}  // namespace detail

/// The function object behind `calx::custom_vjp`.
using custom_vjp_fn = detail::custom_fn<detail::custom_vjp_kind>;

/// `calx::custom_vjp(fwd)`: `fwd(args...)` returns `std::pair{result, backward}`, where
/// `backward(ct)` takes a cotangent with the result's structure and returns a `std::tuple`
/// with one cotangent per argument (each with that argument's structure). The closure's
/// captures are the residuals. Reverse mode (grad, value_and_grad, vjp, jacrev) uses
/// `backward`; forward mode (jvp, jacfwd, linearize) differentiates `fwd`'s result; vmap
/// batches both; the backward is traced code, so grad(grad(f)) and hessian differentiate it.
/// On plain numbers the function returns `fwd`'s result.
///
/// Example:
/// `constexpr auto clip_gradient = calx::custom_vjp([](auto x) {
///    return std::pair{x, [](auto g) { return std::tuple{calx::clamp(g, -1.0, 1.0)}; }}; });`
inline constexpr custom_vjp_fn custom_vjp{};

CALX_END_NAMESPACE

#endif // CALX_CUSTOM_VJP_HPP
