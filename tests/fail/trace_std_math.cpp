// std::sin on a traced value: calx's message names calx::sin (before: the compiler's list of
// std::sin overloads that do not take a calx::tracer). g++ reports this one error; clang 14
// follows it with the tracing failure it causes (calx's "could not be traced" message).
// EXPECT: write calx::sin, calx::exp
#include <calx/calx.hpp>

#include <cmath>

int main() {
  auto f = [](auto x) { return std::sin(x) * x; };
  double g = calx::grad(f)(1.0);
  (void)g;
}
