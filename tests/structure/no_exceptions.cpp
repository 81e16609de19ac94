// calx with -fno-exceptions: every public header compiles, and tracing, evaluation (scalar
// and SIMD) and printing work.
#include <calx_all_public_headers.hpp>
#include <calx/simd/batch.hpp>

#include <cmath>
#include <cstdio>
#include <string>

int main() {
  constexpr auto f = [](auto x, auto y) { return calx::where(x < y, calx::log1p(x * x) * y, x - y); };
  auto p = calx::trace(f, 1.0, 2.0);
  int failures = 0;
  double v = p(0.5, 2.0);
  double want = std::log1p(0.25) * 2.0;
  if (std::abs(v - want) > 1e-12) ++failures;
  auto b = p(xsimd::batch<double>(0.5), xsimd::batch<double>(2.0));
  if (std::abs(b.get(0) - want) > 1e-12) ++failures;
  if (calx::to_string(p).find("where") == std::string::npos) ++failures;
#if defined(__cpp_exceptions) || defined(__EXCEPTIONS)
  std::printf("no_exceptions: built with exceptions enabled\n");
  ++failures;
#endif
  std::printf("%s\n", failures == 0 ? "no_exceptions: ok" : "no_exceptions: FAILED");
  return failures == 0 ? 0 : 1;
}
