// A consumer of calx: traces and evaluates a function. Built by the subdir, install and
// build_tree consumer projects (and with pkg-config flags after an install).
#include <calx/calx.hpp>

#include <cmath>
#include <cstdio>

int main() {
  constexpr auto f = [](auto x, auto y) { return calx::sin(x) * y + x * x; };
  auto p = calx::trace(f, 1.0, 2.0);
  double got = p(0.5, 3.0);
  double want = std::sin(0.5) * 3.0 + 0.25;
  std::printf("consumer: f(0.5, 3) = %.6f\n", got);
  return std::abs(got - want) <= 1e-12 ? 0 : 1;
}
