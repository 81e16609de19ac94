/// @file argnums.hpp
/// @brief Transform options: `calx::argnums<I...>` (which arguments to differentiate,
/// negative counts from the end as in JAX) and `calx::has_aux` (the function returns
/// `std::pair{value, aux}` and `aux` passes through untouched).
#ifndef CALX_ARGNUMS_HPP
#define CALX_ARGNUMS_HPP

#include <calx/config.hpp>

CALX_BEGIN_NAMESPACE

/// The type of `calx::argnums<I...>`.
template <int... I>
struct argnums_t {};

/// Which positional arguments a transform differentiates: `calx::argnums<0, 2>`.
template <int... I>
inline constexpr argnums_t<I...> argnums{};

/// The type of `calx::has_aux`.
struct has_aux_t {};

/// The function returns `std::pair{value, aux}`; the transform differentiates `value` and
/// returns `aux` unchanged next to its result.
inline constexpr has_aux_t has_aux{};

CALX_END_NAMESPACE

#endif // CALX_ARGNUMS_HPP
