// calx::argnums naming the same argument twice.
// EXPECT: calx::grad: calx::argnums names the same argument twice
// ERRORS: 1
#include <calx/calx.hpp>

int main() {
  auto f = [](auto x, auto y) { return x * y; };
  auto g = calx::grad(f, calx::argnums<0, 0>)(1.0, 2.0);
  (void)g;
}
