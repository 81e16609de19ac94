#pragma once
#include "prices.hpp"

// prices_impl.hpp
template <class Arch>
void run_prices::operator()(Arch a, std::span<const double> s, double k, std::span<double> out) const {
  calx::vmap(price, calx::in_axes<0, calx::none>).arch(a).into(out)(s, k);
}
