// The fix: name at least one argument (or none of argnums: JAX's default is argnums=0).
#include <calx/calx.hpp>

int main() {
  auto f = [](auto x, auto y) { return x * y; };
  auto g = calx::grad(f, calx::argnums<0>)(1.0, 2.0);
  auto h = calx::grad(f)(1.0, 2.0);
  (void)g;
  (void)h;
}
