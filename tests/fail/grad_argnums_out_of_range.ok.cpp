// The fix: indices 0 .. n-1 (here the last argument, 1).
#include <calx/calx.hpp>

int main() {
  auto f = [](auto x, auto y) { return x * y; };
  auto g = calx::grad(f, calx::argnums<1>)(1.0, 2.0);
  (void)g;
}
