// CALX_DISABLE_CONCEPT_CHECKS skips the probe that traces each function a second time: the
// transforms still give the same results. (The saving is small for small functions:
// examples/tour.cpp, g++ -fsyntax-only, 2.07 s with the probe, 1.92 s without.)
#define CALX_DISABLE_CONCEPT_CHECKS
#include <calx/calx.hpp>

#include <cmath>
#include <cstdio>
#include <vector>

static_assert(CALX_CONCEPT_CHECKS == 0);

int main() {
  constexpr auto f = [](auto x, auto y) { return calx::sin(x) * y + x * x; };
  const double g = calx::grad(f)(0.5, 3.0);
  const auto v = calx::vmap(calx::grad(f))(std::vector<double>{0.5, 1.0}, std::vector<double>{3.0, 2.0});
  const bool ok = std::abs(g - (std::cos(0.5) * 3.0 + 1.0)) < 1e-15 && std::abs(v[0] - g) < 1e-14 &&
                  std::abs(v[1] - (std::cos(1.0) * 2.0 + 2.0)) < 1e-14;
  std::printf("%s\n", ok ? "ok" : "FAILED");
  return ok ? 0 : 1;
}
