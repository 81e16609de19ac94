// Compiled once per instruction set by calx_simd_dispatch, CALX_SIMD_ARCH naming it.
#include "greeks.hpp"

template <class Arch>
void run_greeks::operator()(Arch a, const options_view& o) const {
  using S = std::span<double>;
  std::pair<S, std::tuple<S, S, S, S>> out{o.price, {o.delta, o.theta, o.rho, o.vega}};
  calx::vmap(calx::value_and_grad(black_scholes, calx::argnums<0, 2, 3, 4>)).arch(a).into(out)(o.S, o.K, o.T, o.r, o.sigma);
}
template void run_greeks::operator()<CALX_SIMD_ARCH>(CALX_SIMD_ARCH, const options_view&) const;
