/// @file jacfwd.hpp
/// @brief `calx::jacfwd(f, options...)`: the Jacobian by forward mode (one pass per input leaf).
#ifndef CALX_JACFWD_HPP
#define CALX_JACFWD_HPP

#include <calx/argnums.hpp>
#include <calx/config.hpp>
#include <calx/detail/call/gradient.hpp>

CALX_BEGIN_NAMESPACE

/// For scalar arguments and outputs the result is shaped like grad's; in general each leaf
/// of the output becomes the structure grad would return (output ⊗ inputs, row major).
/// With `calx::has_aux`: `std::pair{jacobian, aux}`.
inline constexpr detail::derivative_fn<detail::jacfwd_kind> jacfwd{};

CALX_END_NAMESPACE

#endif // CALX_JACFWD_HPP
