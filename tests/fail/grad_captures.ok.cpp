// The fix: pass the captured value as an argument and differentiate the other one.
#include <calx/calx.hpp>

int main() {
  double k = 3.0;
  auto f = [](auto x, auto kk) { return kk * x * x; };
  auto g = calx::grad(f, calx::argnums<0>)(2.0, k);
  (void)g;
}
