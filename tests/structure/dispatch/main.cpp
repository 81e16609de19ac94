// Checks the dispatch pattern of docs/vmap.md: the dispatched call picks an instantiation the
// CPU supports, and both instantiations agree with the scalar function (to a few ulps: the
// two ISAs' exp kernels may round differently).
#include "prices.hpp"

#include <cmath>
#include <cstdio>
#include <vector>

int main() {
  std::vector<double> s(37), out(37), direct(37);
  for (std::size_t i = 0; i < s.size(); ++i) s[i] = 80.0 + 1.5 * static_cast<double>(i);
  // main.cpp, compiled for the baseline
  auto dispatched = xsimd::dispatch<xsimd::arch_list<xsimd::avx2, xsimd::sse2>>(run_prices{});
  dispatched(std::span<const double>(s), 100.0, std::span<double>(out));   // picks AVX2 if the CPU has it
  int failures = 0;
  auto check = [&](const std::vector<double>& r, const char* what) {
    for (std::size_t i = 0; i < s.size(); ++i) {
      const double want = price(s[i], 100.0);
      if (!(std::abs(r[i] - want) <= 1e-13 * std::abs(want))) {
        std::printf("%s: sample %zu: %.17g, want %.17g\n", what, i, r[i], want);
        ++failures;
      }
    }
  };
  check(out, "dispatched");
  run_prices{}(xsimd::sse2{}, s, 100.0, direct);
  check(direct, "sse2");
  if (xsimd::available_architectures().avx2) {
    run_prices{}(xsimd::avx2{}, s, 100.0, direct);
    check(direct, "avx2");
  }
  std::printf("dispatch: %s (avx2 %s on this CPU)\n", failures == 0 ? "ok" : "FAILED",
              xsimd::available_architectures().avx2 ? "available" : "not available");
  return failures == 0 ? 0 : 1;
}
