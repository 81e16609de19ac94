/// @file jvp.hpp
/// @brief `calx::jvp(f, primals, tangents)`: forward mode, the value and the directional
/// derivative together.
#ifndef CALX_JVP_HPP
#define CALX_JVP_HPP

#include <calx/argnums.hpp>
#include <calx/config.hpp>
#include <calx/detail/call/batched_call.hpp>
#include <calx/detail/call/transform_support.hpp>
#include <calx/detail/returned.hpp>

#include <tuple>
#include <type_traits>
#include <utility>

CALX_BEGIN_NAMESPACE

/// `calx::jvp(f, std::tuple{x, y}, std::tuple{tx, ty})` is `std::pair{f(x, y), J·(tx, ty)}`.
/// Tangents have the primals' structure and precision. Options, after the tangents, in any
/// order:
/// - `calx::argnums<I...>`: tangents only for the arguments it names, in its order; the
///   others are data, with no tangent (`calx::jvp(f, std::tuple{x, data}, std::tuple{tx},
///   calx::argnums<0>)`) and may hold integers;
/// - `calx::has_aux`: `f` returns `std::pair{value, aux}` and the result is
///   `std::tuple{value, tangent, aux}`.
struct jvp_fn {
  template <class F, class P, class T, class... Opts>
  constexpr auto operator()(const F&, const P& primals, const T& tangents, const Opts&...) const {
    using O = detail::transform_options<Opts...>;
    constexpr bool stateless = detail::stateless_v<F>;
    static_assert(stateless, CALX_MSG_CAPTURES_IN("jvp"));
    constexpr bool tuples = detail::is_tuple_v<P> && detail::is_tuple_v<T>;
    static_assert(!stateless || tuples, CALX_MSG_JVP_TUPLES);
    static_assert(!stateless || !tuples || O::valid, CALX_MSG_BAD_OPTION("jvp"));
    if constexpr (stateless && tuples && O::valid) {
      return std::apply(
          [&](const auto&... x) {
            return std::apply(
                [&](const auto&... t) {
                  return compute<F, O::aux, typename O::tangent_argnums>(std::tuple<const std::remove_cvref_t<decltype(x)>&...>{x...}, t...);
                },
                tangents);
          },
          primals);
    } else {
      return detail::invalid_program{};
    }
  }

 private:
  template <class F, bool Aux, class Argnums, class... A, class... TA>
  static constexpr auto compute(const std::tuple<const A&...>& primals, const TA&... t) {  // NOLINT
    using namespace detail;
    using Args = tangent_args<Argnums, A...>;
    if constexpr (!std::is_void_v<Argnums>) {
      using Info = typename Args::info;
      CALX_CHECK_ARGNUMS("jvp", Info);
    }
    if constexpr (std::is_void_v<Argnums>) {
      static_assert(!Args::integers, CALX_MSG_INTEGER_PRIMAL("jvp"));
    } else if constexpr (Args::info::ok) {
      static_assert(!Args::integers, CALX_MSG_ARGNUMS_INTEGER("jvp"));
    }
    if constexpr (!Args::info::ok || Args::integers) {
      return invalid_program{};
    } else if constexpr (diagnose_arguments<A...>() && diagnose_traceable<F, rebind_t<A, tracer>...>()) {
      using C = traced_call<F, A...>;
      using L = typename C::leaf;
      constexpr bool same = matches_list<L, typename Args::types>::template structure_of<TA...>();
      static_assert(same, CALX_MSG_TANGENT_STRUCTURE);
      using Split = split_output<typename C::output_tree, Aux>;
      static_assert(!same || Split::valid, CALX_MSG_AUX_PAIR("jvp"));
      if constexpr (same && Split::valid) {
        using Source = jvp_source<typename C::source, typename Args::template spec<C>>;
        if constexpr (!rules_found<Source>()) {
          report_missing_rule<Source>();
          return invalid_program{};
        } else if constexpr (std::is_same_v<L, tracer>) {  // inside a trace, batches (batch_tracers) too
          const auto flat = concat(std::apply([](const A&... x) { return flatten_args<L>(x...); }, primals),
                                   flatten_args<L>(t...));
          const auto out = run<Source>(flat);
          using V = rebind_t<typename Split::value, L>;
          const V value = unflatten<V>(out, 0);
          const V tangent = unflatten<V>(out, slot_count_v<typename C::output_tree, L>);
          if constexpr (Aux)
            return std::tuple{value, tangent, unflatten<rebind_t<typename Split::aux, L>>(out, slot_count_v<V, L>)};
          else
            return std::pair{value, tangent};
        } else if constexpr ((has_batch_v<A> || ...) || (has_batch_v<TA> || ...)) {
          // Runtime batches: values and tangents are columns wherever they are per sample.
          using Out = typename C::output_tree;
          // Values and tangents share a type: columns if any of them is per sample.
          using OutRes = rebind_t<Out, std::conditional_t<any_batched_output<Source>(0, 2 * C::outputs), batched<L>, L>>;
          auto r = std::apply(
              [&](const A&... x) {
                return batched_call<Source, std::tuple<Out, Out>, std::tuple<OutRes, OutRes>, L>("calx::jvp", x..., t...);
              },
              primals);
          auto& [out, tan] = r;  // columns are moved out, not copied
          if constexpr (Aux)
            return std::tuple{std::move(out.first), std::move(tan.first), std::move(out.second)};
          else
            return std::pair{std::move(out), std::move(tan)};
        } else if constexpr (!Aux) {  // numbers: (value, tangent) written where the caller keeps them
          using Out = rebind_t<typename C::output_tree, L>;
          return returned<std::pair<Out, Out>>([&](std::pair<Out, Out>& r) {
            std::apply(
                [&](const A&... x) {
                  run_into<Source>(arguments_in_place<L>(x..., t...), results_in_place<L>(r.first, r.second));
                },
                primals);
          });
        } else {  // numbers, read and written in place (the tangents of auxiliary data unused)
          rebind_t<typename C::output_tree, L> value{}, tangent{};
          std::apply(
              [&](const A&... x) {
                run_into<Source>(arguments_in_place<L>(x..., t...), results_in_place<L>(value, tangent));
              },
              primals);
          if constexpr (Aux)
            return std::tuple{value.first, tangent.first, value.second};
          else
            return std::pair{value, tangent};
        }
      } else {
        return invalid_program{};
      }
    } else {
      return tracing_failed<F, rebind_t<A, tracer>...>();
    }
  }
};
inline constexpr jvp_fn jvp{};

CALX_END_NAMESPACE

#endif // CALX_JVP_HPP
