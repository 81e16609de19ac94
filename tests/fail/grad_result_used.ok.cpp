// The fix: the captured value as an argument.
#include <calx/calx.hpp>

int main() {
  double k = 3.0;
  auto f = [](auto x, auto kk) { return kk * x * x; };
  auto [v, g] = calx::value_and_grad(f)(2.0, k);
  double d = g + 2.0 * v;
  (void)d;
}
