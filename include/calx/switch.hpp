/// @file switch.hpp
/// @brief `calx::switch_(index, std::tuple{fn0, fn1, ...}, operands...)`: JAX's `lax.switch`.
/// The branch `index` names runs, `index` clamped to [0, n): on a traced index, a chain of
/// `calx::cond` nodes (branch k taken where index < k + 1), so its transforms are cond's.
#ifndef CALX_SWITCH_HPP
#define CALX_SWITCH_HPP

#include <calx/cond.hpp>
#include <calx/config.hpp>
#include <calx/detail/diagnostics.hpp>
#include <calx/detail/invalid_program.hpp>
#include <calx/detail/call/trace_source.hpp>
#include <calx/tracer.hpp>

#include <concepts>
#include <cstddef>
#include <tuple>
#include <type_traits>
#include <utility>

CALX_BEGIN_NAMESPACE

namespace detail {

/// Branch `Fn` as a cond branch of the switch's chain: it takes the index first, unused.
template <class Fn>
struct ignoring_index {
  template <class I, class... X>
  constexpr auto operator()(const I&, const X&... x) const {
    return make_stateless<Fn>()(x...);
  }
};

/// The switch from branch `K` of `Fns` on: branch K where index < K + 1 (or K is the last),
/// else the rest of the chain. A real index is truncated toward zero, as JAX converts it to
/// an integer, and clamped.
template <std::size_t K, class Fns>
struct switch_chain {
  template <class I, class... X>
  constexpr auto operator()(const I& index, const X&... x) const {
    using Fn = std::tuple_element_t<K, Fns>;
    if constexpr (K + 1 == std::tuple_size_v<Fns>)
      return make_stateless<Fn>()(x...);
    else
      return calx::cond(index < static_cast<double>(K + 1), ignoring_index<Fn>{}, switch_chain<K + 1, Fns>{}, index, x...);
  }
};

template <class T>
inline constexpr bool all_stateless = false;
template <class... F>
inline constexpr bool all_stateless<std::tuple<F...>> = (stateless_v<F> && ...);

template <class T>
inline constexpr bool is_tuple_of_functions = false;
template <class... F>
inline constexpr bool is_tuple_of_functions<std::tuple<F...>> = sizeof...(F) > 0;

}  // namespace detail

struct switch_fn {
  /// A traced index (an integer argument of the traced function, or a traced value): a chain
  /// of conds, whose branches must be stateless. A plain integer: the branch it names,
  /// called.
  template <class I, class Fns, class... X>
  constexpr auto operator()(const I& index, const Fns& fns, const X&... x) const {
    constexpr bool tuple = detail::is_tuple_of_functions<Fns>;
    static_assert(tuple, CALX_MSG_SWITCH_BRANCHES);
    constexpr bool index_ok = real_tracer<I> || (std::is_integral_v<I> && !std::is_same_v<I, bool>);
    static_assert(!tuple || index_ok, CALX_MSG_SWITCH_INDEX);
    if constexpr (tuple && index_ok) {
      if constexpr (real_tracer<I>) {
        constexpr bool stateless = detail::all_stateless<Fns>;
        static_assert(stateless, CALX_MSG_SWITCH_STATELESS);
        if constexpr (stateless)
          return detail::switch_chain<0, Fns>{}(tracer(index), x...);
        else
          return detail::invalid_program{};
      } else {
        constexpr long long n = std::tuple_size_v<Fns>;
        const long long k = index < 0 ? 0 : static_cast<long long>(index) >= n ? n - 1 : static_cast<long long>(index);
        return plain<0>(fns, k, x...);
      }
    } else {
      return detail::invalid_program{};
    }
  }

 private:
  template <std::size_t K, class Fns, class... X>
  static constexpr auto plain(const Fns& fns, long long k, const X&... x) {
    if constexpr (K + 1 == std::tuple_size_v<Fns>) {
      return std::get<K>(fns)(x...);
    } else {
      using R = decltype(std::get<K>(fns)(x...));
      using Rest = decltype(plain<K + 1>(fns, k, x...));
      constexpr bool same = std::is_same_v<std::remove_cvref_t<R>, std::remove_cvref_t<Rest>>;
      static_assert(same, CALX_MSG_COND_RESULTS);
      if constexpr (same)
        return k == static_cast<long long>(K) ? std::get<K>(fns)(x...) : plain<K + 1>(fns, k, x...);
      else
        return detail::invalid_program{};
    }
  }
};
/// `calx::switch_(index, std::tuple{fn0, fn1, ...}, operands...)`: see switch_fn.
inline constexpr switch_fn switch_{};

CALX_END_NAMESPACE

#endif  // CALX_SWITCH_HPP
