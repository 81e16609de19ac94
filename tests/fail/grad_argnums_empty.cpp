// calx::argnums<> differentiates with respect to nothing.
// EXPECT: calx::grad: calx::argnums<> is empty
// ERRORS: 1
#include <calx/calx.hpp>

int main() {
  auto f = [](auto x, auto y) { return x * y; };
  auto g = calx::grad(f, calx::argnums<>)(1.0, 2.0);
  (void)g;
}
