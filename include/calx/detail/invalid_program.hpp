/// @file detail/invalid_program.hpp
/// @brief `invalid_program`: what an entry point returns once it has reported a misuse, so
/// that only calx's message is shown. It stands in for any result: it converts to any type,
/// can be called, indexed, combined with operators, and bound as `auto [a, b]` (the pairs
/// that value_and_grad, vjp and jvp return) or read as `.first` and `.second`, each giving
/// another invalid_program.
#ifndef CALX_DETAIL_INVALID_PROGRAM_HPP
#define CALX_DETAIL_INVALID_PROGRAM_HPP

#include <calx/detail/internal_header_check.hpp>

#include <cstddef>
#include <type_traits>
#include <utility>

CALX_BEGIN_NAMESPACE
namespace detail {

struct invalid_program {
  /// `.first` and `.second`, as of a pair (value_and_grad's, or a scan's carry).
  static const invalid_program first, second;
  template <class... A>
  constexpr invalid_program operator()(const A&...) const {
    return {};
  }
  template <class I>
  constexpr invalid_program operator[](const I&) const {
    return {};
  }
  template <class T>
    requires std::is_default_constructible_v<T>
  constexpr operator T() const {
    return T{};
  }
  template <std::size_t I>
  constexpr invalid_program get() const {
    return {};
  }
  template <class X>
  friend constexpr invalid_program operator+(const invalid_program&, const X&) { return {}; }
  template <class X>
    requires(!std::is_same_v<X, invalid_program>)
  friend constexpr invalid_program operator+(const X&, const invalid_program&) { return {}; }
  template <class X>
  friend constexpr invalid_program operator-(const invalid_program&, const X&) { return {}; }
  template <class X>
    requires(!std::is_same_v<X, invalid_program>)
  friend constexpr invalid_program operator-(const X&, const invalid_program&) { return {}; }
  template <class X>
  friend constexpr invalid_program operator*(const invalid_program&, const X&) { return {}; }
  template <class X>
    requires(!std::is_same_v<X, invalid_program>)
  friend constexpr invalid_program operator*(const X&, const invalid_program&) { return {}; }
  template <class X>
  friend constexpr invalid_program operator/(const invalid_program&, const X&) { return {}; }
  template <class X>
    requires(!std::is_same_v<X, invalid_program>)
  friend constexpr invalid_program operator/(const X&, const invalid_program&) { return {}; }
};
inline constexpr invalid_program invalid_program::first{};
inline constexpr invalid_program invalid_program::second{};

/// Whether a function's result is, or holds, an invalid_program: some call inside the
/// function has already reported its misuse, so the caller stays silent.
template <class T>
struct holds_invalid_program : std::is_same<T, invalid_program> {};
template <template <class...> class C, class... T>
struct holds_invalid_program<C<T...>>
    : std::bool_constant<(holds_invalid_program<std::remove_cvref_t<T>>::value || ...)> {};
template <template <class, std::size_t> class C, class T, std::size_t N>
struct holds_invalid_program<C<T, N>> : holds_invalid_program<std::remove_cvref_t<T>> {};

}  // namespace detail
CALX_END_NAMESPACE

template <>
struct std::tuple_size<calx::detail::invalid_program> : std::integral_constant<std::size_t, 2> {};
template <std::size_t I>
struct std::tuple_element<I, calx::detail::invalid_program> {
  using type = calx::detail::invalid_program;
};

#endif // CALX_DETAIL_INVALID_PROGRAM_HPP
