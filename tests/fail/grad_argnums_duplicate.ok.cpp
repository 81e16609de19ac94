// The fix: each argument once.
#include <calx/calx.hpp>

int main() {
  auto f = [](auto x, auto y) { return x * y; };
  auto g = calx::grad(f, calx::argnums<0, 1>)(1.0, 2.0);
  (void)g;
}
