/// @file detail/returned.hpp
/// @brief `returned<R>(fill)`: a result built in place in the caller's storage. GCC 12 does
/// not elide the copy of a named local return value in a function where a discarded
/// `if constexpr` branch returns something else, so such a function's large result (a
/// tensor of 8 MiB) would sit on the stack twice; a function of its own whose one return is
/// the named value is elided, and so is the prvalue its caller returns.
#ifndef CALX_DETAIL_RETURNED_HPP
#define CALX_DETAIL_RETURNED_HPP

#include <calx/detail/internal_header_check.hpp>

#include <tuple>
#include <type_traits>
#include <utility>

CALX_BEGIN_NAMESPACE
namespace detail {

/// A value-initialised `R` that `fill(r)` writes, returned without a copy.
template <class R, class Fill>
CALX_HOST_DEVICE CALX_INLINE constexpr R returned(const Fill& fill) {
  R r{};
  fill(r);
  return r;
}

/// Asks a type that can (a calx::tensor) for its elements unset.
struct unset_t {};
/// Whether `R(unset_t{})` is such a request: said by the type (tensor_type.hpp), not
/// probed, since a constructor template that takes anything (Eigen's) would pass a probe.
template <class R>
inline constexpr bool built_unset_v = false;

/// The same for a `fill` that writes every number of `R` (a program's outputs, which are
/// all of its result's): a tensor is not zeroed first (a pass over a large gradient). Two
/// overloads, not an `if constexpr`, so that each has one named return (see above).
template <class R, class Fill>
  requires built_unset_v<R>
CALX_HOST_DEVICE CALX_INLINE constexpr R returned_written(const Fill& fill) {
  R r(unset_t{});
  fill(r);
  return r;
}
/// A pair of a number and such a `R` (value_and_grad's): the same.
template <class R, class Fill>
  requires requires { typename R::second_type; } && built_unset_v<typename R::second_type>
CALX_HOST_DEVICE CALX_INLINE constexpr R returned_written(const Fill& fill) {
  R r(std::piecewise_construct, std::tuple<>{}, std::tuple<unset_t>{});
  fill(r);
  return r;
}
template <class R, class Fill>
CALX_HOST_DEVICE CALX_INLINE constexpr R returned_written(const Fill& fill) {
  return returned<R>(fill);
}

}  // namespace detail
CALX_END_NAMESPACE

#endif  // CALX_DETAIL_RETURNED_HPP
