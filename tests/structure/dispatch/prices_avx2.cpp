// prices_avx2.cpp, compiled with -mavx2 (and prices_sse2.cpp likewise, without it)
#include "prices_impl.hpp"
template void run_prices::operator()<xsimd::avx2>(xsimd::avx2, std::span<const double>, double, std::span<double>) const;
