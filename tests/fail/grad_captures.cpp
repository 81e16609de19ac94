// calx::grad of a lambda with captures: calx traces functions at compile time, so they
// must be stateless.
// EXPECT: calx::grad: the function captures state
// ERRORS: 1
#include <calx/calx.hpp>

int main() {
  double k = 3.0;
  auto f = [k](auto x) { return k * x * x; };
  auto g = calx::grad(f)(2.0);
  (void)g;
}
