// The fix: -1 .. -n (here -2, the first argument).
#include <calx/calx.hpp>

int main() {
  auto f = [](auto x, auto y) { return x * y; };
  auto g = calx::grad(f, calx::argnums<-2>)(1.0, 2.0);
  (void)g;
}
