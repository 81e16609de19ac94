// One binary for several instruction sets (docs/vmap.md, "Architectures"): the function and
// the entry point every ISA's translation unit instantiates.
#pragma once
#include <calx/calx.hpp>

#include <span>

#include <xsimd/xsimd.hpp>

// prices.hpp
constexpr auto price = [](auto s, auto k) { return calx::max(s - k, 0.0) + calx::exp(-s) * k; };
struct run_prices {
  template <class Arch>
  void operator()(Arch, std::span<const double> s, double k, std::span<double> out) const;
};
extern template void run_prices::operator()<xsimd::avx2>(xsimd::avx2, std::span<const double>, double, std::span<double>) const;
extern template void run_prices::operator()<xsimd::sse2>(xsimd::sse2, std::span<const double>, double, std::span<double>) const;
