/// @file value_and_grad.hpp
/// @brief `calx::value_and_grad(f, options...)`: the value and gradient together.
#ifndef CALX_VALUE_AND_GRAD_HPP
#define CALX_VALUE_AND_GRAD_HPP

#include <calx/argnums.hpp>
#include <calx/config.hpp>
#include <calx/detail/call/batched_call.hpp>  // runtime batches: the SIMD and device executors
#include <calx/detail/call/gradient.hpp>

CALX_BEGIN_NAMESPACE

/// `calx::value_and_grad(f, calx::argnums<0, 1>)(x, y)` is `std::pair{f(x, y), std::tuple{df/dx,
/// df/dy}}`; with `calx::has_aux`, `std::pair{std::pair{value, aux}, grad}` (JAX's order).
inline constexpr detail::derivative_fn<detail::value_and_grad_kind> value_and_grad{};

CALX_END_NAMESPACE

#endif // CALX_VALUE_AND_GRAD_HPP
