// The fix: -2 and -1 are two different arguments.
#include <calx/calx.hpp>

int main() {
  auto f = [](auto x, auto y) { return x * y; };
  auto g = calx::grad(f, calx::argnums<-2, -1>)(1.0, 2.0);
  (void)g;
}
