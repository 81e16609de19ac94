/// @file linearize.hpp
/// @brief `calx::linearize(f, x...)`: the value and the linear map of tangents at `x`.
#ifndef CALX_LINEARIZE_HPP
#define CALX_LINEARIZE_HPP

#include <calx/argnums.hpp>
#include <calx/config.hpp>
#include <calx/detail/call/late_call.hpp>
#include <calx/detail/call/transform_support.hpp>

#include <cstddef>
#include <tuple>
#include <type_traits>
#include <utility>

CALX_BEGIN_NAMESPACE

/// The linear map of `calx::linearize`: `lin(tx, ty)` is J·(tx, ty), with the output's
/// structure. Found by partial evaluation of the jvp: the primal part ran once, in
/// `linearize`, and the map holds its residuals, so calls do not linearize again.
template <class State, class Value, class... Args>
struct linear_map {
  using L = typename State::leaf;
  State state;
  /// How many numbers it stores (see `pullback::residuals`).
  static constexpr std::size_t residuals = State::residual_count;

  /// One tangent per primal with its structure and precision (numbers too, inside a trace).
  template <class... T>
  static constexpr bool accepts = std::is_same_v<L, tracer>
                                      ? (sizeof...(T) == sizeof...(Args) && detail::matches<tracer, Args...>::template structure_of<detail::rebind_t<T, tracer>...>())
                                      : detail::matches<L, Args...>::template structure_of<T...>();

  template <class... T>
    requires(accepts<T...>)
  constexpr Value operator()(const T&... t) const {
    return state.template call<Value>(t...);
  }
  template <class... T>
    requires(!accepts<T...>)
  constexpr detail::invalid_program operator()(const T&...) const {
    static_assert(detail::always_false_v<T...>, CALX_MSG_LINEAR_TANGENT_STRUCTURE);
    return {};
  }
};

/// `calx::linearize(f, x, y)` is `std::pair{f(x, y), linear_map}`;
/// `calx::linearize(f, calx::has_aux, x, y)` is `std::tuple{value, linear_map, aux}`.
struct linearize_fn {
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
    static_assert(stateless, CALX_MSG_CAPTURES_IN("linearize"));
    constexpr bool flat_args = !(has_batch_v<A> || ...);
    static_assert(!stateless || flat_args, CALX_MSG_BATCH_PARTIAL("linearize"));
    constexpr bool no_integers = !(has_integer_v<A> || ...);
    static_assert(!stateless || !flat_args || no_integers, CALX_MSG_INTEGER_PRIMAL("linearize"));
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
      static_assert(Split::valid, CALX_MSG_AUX_PAIR("linearize"));
      if constexpr (Split::valid) {
        using Full = jvp_source<typename C::source, range_spec<0, C::inputs>>;
        if constexpr (!rules_found<Full>()) {
          report_missing_rule<Full>();
          return invalid_program{};
        } else {
          const auto [primal, late] = split_call<Full, C>(a...);
          using V = rebind_t<typename Split::value, L>;
          const linear_map<std::remove_cvref_t<decltype(late)>, V, rebind_t<A, L>...> lin{late};
          if constexpr (Aux)
            return std::tuple{V(primal.first), lin, primal.second};
          else
            return std::pair{V(primal), lin};
        }
      } else {
        return invalid_program{};
      }
    } else {
      return tracing_failed<F, rebind_t<A, tracer>...>();
    }
  }
};
inline constexpr linearize_fn linearize{};

CALX_END_NAMESPACE

#endif // CALX_LINEARIZE_HPP
