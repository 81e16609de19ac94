/// @file detail/returned.hpp
/// @brief `returned<R>(fill)`: a result built in place in the caller's storage. GCC 12 does
/// not elide the copy of a named local return value in a function where a discarded
/// `if constexpr` branch returns something else, so such a function's large result (a
/// tensor of 8 MiB) would sit on the stack twice; a function of its own whose one return is
/// the named value is elided, and so is the prvalue its caller returns.
#ifndef CALX_DETAIL_RETURNED_HPP
#define CALX_DETAIL_RETURNED_HPP

#include <calx/detail/internal_header_check.hpp>

CALX_BEGIN_NAMESPACE
namespace detail {

/// A value-initialised `R` that `fill(r)` writes, returned without a copy.
template <class R, class Fill>
CALX_HOST_DEVICE CALX_INLINE constexpr R returned(const Fill& fill) {
  R r{};
  fill(r);
  return r;
}

}  // namespace detail
CALX_END_NAMESPACE

#endif  // CALX_DETAIL_RETURNED_HPP
