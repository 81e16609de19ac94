/// @file hessian.hpp
/// @brief `calx::hessian(f, options...)`: second derivatives, forward over reverse.
#ifndef CALX_HESSIAN_HPP
#define CALX_HESSIAN_HPP

#include <calx/argnums.hpp>
#include <calx/config.hpp>
#include <calx/detail/call/gradient.hpp>

#include <type_traits>

CALX_BEGIN_NAMESPACE

/// `calx::hessian(f)(x)` is d²f/dx²; `calx::hessian(f, calx::argnums<0, 1>)(x, y)` is a
/// `std::tuple` of `std::tuple`s with `H[i][j] = d²f / dxi dxj`. It is
/// `jacfwd(jacrev(f, options...), options...)`, as in JAX; with `calx::has_aux` the result is
/// `std::pair{hessian, aux}`.
struct hessian_fn {
  template <class F, class... Opts>
  constexpr auto operator()(const F& f, const Opts&... opts) const {
    using inner = decltype(detail::derivative_fn<detail::jacrev_kind>{}(f, opts...));
    return detail::derivative_fn<detail::jacfwd_kind>{}(detail::make_stateless<inner>(), opts...);
  }
};
inline constexpr hessian_fn hessian{};

CALX_END_NAMESPACE

#endif // CALX_HESSIAN_HPP
