// The first example of README.md, compiled and output-checked (examples/readme.out).
#include <calx/calx.hpp>
#include <cstdio>

int main() {
  constexpr auto f = [](auto x, auto y) { return calx::sin(x) * y + x * x; };

  auto p = calx::trace(f, 1.0, 2.0);         // traced at compile time, for two doubles
  std::puts(calx::to_string(p).c_str());     // the IR, like jax.make_jaxpr
  std::printf("%f\n", p(0.5, 3.0));          // generated straight-line code
  std::printf("%f\n", calx::grad(f)(0.5, 3.0));  // df/dx = cos(x) * y + 2x
}
