// The fix: calx::sin, which records the op while tracing and runs std::sin on numbers.
#include <calx/calx.hpp>

int main() {
  auto f = [](auto x) { return calx::sin(x) * x; };
  double g = calx::grad(f)(1.0);
  (void)g;
}
