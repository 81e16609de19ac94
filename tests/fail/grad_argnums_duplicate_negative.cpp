// calx::argnums<1, -1> with two arguments: both name the last one once negative indices
// are counted from the end.
// EXPECT: calx::grad: calx::argnums names the same argument twice
// ERRORS: 1
#include <calx/calx.hpp>

int main() {
  auto f = [](auto x, auto y) { return x * y; };
  auto g = calx::grad(f, calx::argnums<1, -1>)(1.0, 2.0);
  (void)g;
}
