/// @file axes.hpp
/// @brief `calx::in_axes`, `calx::out_axes` and `calx::none`: which arguments `calx::vmap`
/// maps over, and which results are per sample.
#ifndef CALX_AXES_HPP
#define CALX_AXES_HPP

#include <calx/config.hpp>

#include <climits>

CALX_BEGIN_NAMESPACE

/// The axis spec of an unbatched argument (broadcast to every sample) or output.
inline constexpr int none = INT_MIN;

/// The type of `calx::in_axes<...>`.
template <int... A>
struct in_axes_t {};
/// Per argument: 0 (batched along its first axis) or `calx::none` (the same value for every
/// sample). One value applies to every argument.
template <int... A>
inline constexpr in_axes_t<A...> in_axes{};

/// The type of `calx::out_axes<...>`.
template <int... A>
struct out_axes_t {};
/// Per element of the returned tuple or pair (or one value for all): 0 (one value per
/// sample) or `calx::none` (an output that does not depend on the batch, returned once).
template <int... A>
inline constexpr out_axes_t<A...> out_axes{};

CALX_END_NAMESPACE

#endif // CALX_AXES_HPP
