/// @file vjp.hpp
/// @brief `calx::vjp(f, x...)`: reverse mode, the value and a pullback that maps output
/// cotangents to input cotangents.
#ifndef CALX_VJP_HPP
#define CALX_VJP_HPP

#include <calx/argnums.hpp>
#include <calx/config.hpp>
#include <calx/detail/call/late_call.hpp>
#include <calx/detail/call/transform_support.hpp>

#include <cstddef>
#include <tuple>
#include <type_traits>
#include <utility>

CALX_BEGIN_NAMESPACE

/// The pullback of `calx::vjp`: `pb(ct)` is `std::tuple{ct_x, ct_y, ...}`, one cotangent
/// per primal with the primal's structure. It holds the residuals of the forward pass (the
/// values the backward pass needs) and runs only the backward program, so it can be
/// called many times.
template <class State, class Cotangent, class Result>
struct pullback {
  using L = typename State::leaf;
  State state;
  /// How many numbers it stores (on numbers; inside a trace, how many traced values): the
  /// memory a `calx::checkpoint` saves.
  static constexpr std::size_t residuals = State::residual_count;

  /// A cotangent with the output's structure and precision; inside a trace, plain numbers
  /// are accepted too (they become constants).
  template <class Ct>
  static constexpr bool accepts = std::is_same_v<L, tracer>
                                      ? std::is_same_v<detail::rebind_t<Ct, tracer>, Cotangent>
                                      : detail::matches<L, Cotangent>::template structure_of<Ct>();

  /// A number where the output is a rank-0 tensor (`calx::sum(x)`), as JAX takes a Python
  /// float for a 0-d array's cotangent.
  template <class Ct>
  static constexpr bool number_for_rank0 = [] {
    if constexpr (requires { Cotangent::rank; typename Cotangent::value_type; })
      return std::is_arithmetic_v<Ct> && Cotangent::rank == 0 &&
             std::is_floating_point_v<typename Cotangent::value_type>;
    else
      return false;
  }();

  template <class Ct>
    requires(accepts<Ct>)
  constexpr Result operator()(const Ct& ct) const {
    return state.template call<Result>(ct);
  }
  template <class Ct>
    requires(!accepts<Ct> && number_for_rank0<Ct>)
  constexpr Result operator()(const Ct& ct) const {
    return state.template call<Result>(Cotangent(static_cast<typename Cotangent::value_type>(ct)));
  }
  template <class Ct>
  constexpr detail::invalid_program operator()(const Ct&) const
    requires(!accepts<Ct> && !number_for_rank0<Ct>)
  {
    static_assert(detail::always_false_v<Ct>, CALX_MSG_COTANGENT_STRUCTURE);
    return {};
  }
};

namespace detail {
/// The pullback of a call on arguments `A...`, with leaves `L`.
template <class L, class... A>
struct pullback_of {
  template <class State, class Value>
  using type = pullback<State, Value, std::tuple<rebind_t<A, L>...>>;
};
}  // namespace detail

/// `calx::vjp(f, x, y)` is `std::pair{f(x, y), pullback}`; `calx::vjp(f, calx::has_aux, x, y)`
/// with `f` returning `std::pair{value, aux}` is `std::tuple{value, pullback, aux}`.
///
/// Example: `auto [y, pb] = calx::vjp(f, x); auto [gx] = pb(1.0);` is the gradient.
struct vjp_fn {
  template <class F, class... A>
    requires(!(std::is_same_v<A, has_aux_t> || ...))
  constexpr auto operator()(const F&, const A&... a) const {
    return compute<F, false>(a...);
  }
  template <class F, class... A>
  constexpr auto operator()(const F&, has_aux_t, const A&... a) const {
    return compute<F, true>(a...);
  }

 private:
  template <class F, bool Aux, class... A>
  static constexpr auto compute(const A&... a) {
    using namespace detail;
    constexpr bool stateless = detail::stateless_v<F>;
    static_assert(stateless, CALX_MSG_CAPTURES_IN("vjp"));
    constexpr bool flat_args = !(has_batch_v<A> || ...);
    static_assert(!stateless || flat_args, CALX_MSG_BATCH_PARTIAL("vjp"));
    constexpr bool no_integers = !(has_integer_v<A> || ...);
    static_assert(!stateless || !flat_args || no_integers, CALX_MSG_INTEGER_PRIMAL("vjp"));
    // Nested, not joined with &&: the tracing diagnosis must not run (and report again)
    // for a function already refused above.
    if constexpr (stateless && flat_args && no_integers)
      return traced<F, Aux>(a...);
    else
      return invalid_program{};
  }

  template <class F, bool Aux, class... A>
  static constexpr auto traced(const A&... a) {
    using namespace detail;
    if constexpr (diagnose_arguments<A...>() && diagnose_traceable<F, rebind_t<A, tracer>...>()) {
      using C = traced_call<F, A...>;
      using L = typename C::leaf;
      using Split = split_output<typename C::output_tree, Aux>;
      static_assert(Split::valid, CALX_MSG_AUX_PAIR("vjp"));
      if constexpr (Split::valid) {
        constexpr std::size_t nv = leaf_count_v<typename Split::value>;
        using Full = vjp_source<typename C::source, range_spec<0, C::inputs>, range_spec<0, nv>, true>;
        return split_transform<pullback_of<L, A...>::template type, Full, C, Split, Aux>(a...);
      } else {
        return invalid_program{};
      }
    } else {
      return tracing_failed<F, rebind_t<A, tracer>...>();
    }
  }
};
inline constexpr vjp_fn vjp{};

CALX_END_NAMESPACE

#endif // CALX_VJP_HPP
