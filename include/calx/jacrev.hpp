/// @file jacrev.hpp
/// @brief `calx::jacrev(f, options...)`: the Jacobian by reverse mode (one pass per output leaf).
#ifndef CALX_JACREV_HPP
#define CALX_JACREV_HPP

#include <calx/argnums.hpp>
#include <calx/config.hpp>
#include <calx/detail/call/gradient.hpp>

CALX_BEGIN_NAMESPACE

/// Same result and layout as `calx::jacfwd`; cheaper when outputs are fewer than inputs.
inline constexpr detail::derivative_fn<detail::jacrev_kind> jacrev{};

CALX_END_NAMESPACE

#endif // CALX_JACREV_HPP
