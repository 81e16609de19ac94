/// @file grad.hpp
/// @brief `calx::grad(f, options...)`: the gradient of a scalar function, as a function.
#ifndef CALX_GRAD_HPP
#define CALX_GRAD_HPP

#include <calx/argnums.hpp>
#include <calx/config.hpp>
#include <calx/detail/call/batched_call.hpp>  // runtime batches: the SIMD and device executors
#include <calx/detail/call/gradient.hpp>

CALX_BEGIN_NAMESPACE

/// `calx::grad(f)(x, y)` is df/dx, with the type and structure of `x`;
/// `calx::grad(f, calx::argnums<0, 1>)(x, y)` is `std::tuple{df/dx, df/dy}`. With
/// `calx::has_aux`, `f` returns `std::pair{value, aux}` and the result is `std::pair{grad, aux}`.
/// The result is itself a stateless function: grad(grad(f)) is the second derivative.
///
/// Example: `calx::grad([](auto x) { return x * calx::sin(x); })(1.0)` is sin(1) + cos(1).
///
/// A function with several outputs is refused at compile time (use jacrev or vjp).
inline constexpr detail::derivative_fn<detail::grad_kind> grad{};

CALX_END_NAMESPACE

#endif // CALX_GRAD_HPP
