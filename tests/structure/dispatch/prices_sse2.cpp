// The baseline instantiation: compiled without ISA flags.
#include "prices_impl.hpp"
template void run_prices::operator()<xsimd::sse2>(xsimd::sse2, std::span<const double>, double, std::span<double>) const;
