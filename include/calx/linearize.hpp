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

namespace detail {
/// The linear map taking tangents of the arguments `List` (a `type_list`), with leaves `L`.
template <class L, class List>
struct linear_map_of;
template <class L, class... A>
struct linear_map_of<L, type_list<A...>> {
  template <class State, class Value>
  using type = linear_map<State, Value, rebind_t<A, L>...>;
};
}  // namespace detail

/// `calx::linearize(f, x, y)` is `std::pair{f(x, y), linear_map}`. Options come before the
/// arguments, in any order:
/// - `calx::argnums<I...>`: the map takes tangents only for the arguments it names, in its
///   order (`calx::linearize(f, calx::argnums<0>, x, data)` gives `lin(tx)`); the others
///   are data and may hold integers;
/// - `calx::has_aux`: the result is `std::tuple{value, linear_map, aux}`.
struct linearize_fn {
  template <class F, class... A>
  constexpr auto operator()(const F&, const A&... a) const {
    constexpr std::size_t k = leading_options<A...>();
    const std::tuple<const A&...> all{a...};
    return [&]<std::size_t... O, std::size_t... I>(std::index_sequence<O...>, std::index_sequence<I...>) {
      using Opts = detail::transform_options<std::tuple_element_t<O, std::tuple<A...>>...>;
      static_assert(Opts::valid, CALX_MSG_BAD_OPTION("linearize"));
      if constexpr (Opts::valid)
        return compute<F, Opts::aux, typename Opts::tangent_argnums>(std::get<k + I>(all)...);
      else
        return detail::invalid_program{};
    }(std::make_index_sequence<k>{}, std::make_index_sequence<sizeof...(A) - k>{});
  }

 private:
  /// How many of the first arguments are options (calx::has_aux, calx::argnums<...>).
  template <class... A>
  static constexpr std::size_t leading_options() {
    constexpr bool option[] = {(std::is_same_v<A, has_aux_t> || detail::is_argnums<A>::value)..., false};
    std::size_t k = 0;
    while (option[k]) ++k;
    return k;
  }

  template <class F, bool Aux, class Argnums, class... A>
  static constexpr auto compute(const A&... a) {
    using namespace detail;
    using Args = tangent_args<Argnums, A...>;
    constexpr bool stateless = detail::stateless_v<F>;
    static_assert(stateless, CALX_MSG_CAPTURES_IN("linearize"));
    constexpr bool flat_args = !(has_batch_v<A> || ...);
    static_assert(!stateless || flat_args, CALX_MSG_BATCH_PARTIAL("linearize"));
    if constexpr (stateless && flat_args && !std::is_void_v<Argnums>) {
      using Info = typename Args::info;
      CALX_CHECK_ARGNUMS("linearize", Info);
    }
    constexpr bool checked = stateless && flat_args && Args::info::ok;
    if constexpr (checked && std::is_void_v<Argnums>) {
      static_assert(!Args::integers, CALX_MSG_INTEGER_PRIMAL("linearize"));
    } else if constexpr (checked) {
      static_assert(!Args::integers, CALX_MSG_ARGNUMS_INTEGER("linearize"));
    }
    // Nested, not joined with &&: the tracing diagnosis must not run (and report again)
    // for a function already refused above.
    if constexpr (checked && !Args::integers)
      return traced<F, Aux, Args>(a...);
    else
      return invalid_program{};
  }

  template <class F, bool Aux, class Args, class... A>
  static constexpr auto traced(const A&... a) {
    using namespace detail;
    if constexpr (diagnose_arguments<A...>() && diagnose_traceable<F, rebind_t<A, tracer>...>()) {
      using C = traced_call<F, A...>;
      using L = typename C::leaf;
      using Split = split_output<typename C::output_tree, Aux>;
      static_assert(Split::valid, CALX_MSG_AUX_PAIR("linearize"));
      if constexpr (Split::valid) {
        using Full = jvp_source<typename C::source, typename Args::template spec<C>>;
        return split_transform<linear_map_of<L, typename Args::types>::template type, Full, C, Split, Aux>(a...);
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
