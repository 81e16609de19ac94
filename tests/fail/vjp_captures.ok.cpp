// The fix: the captured value as an argument (its cotangent is simply not used).
#include <calx/calx.hpp>

int main() {
  double k = 3.0;
  auto f = [](auto x, auto kk) { return kk * x; };
  auto r = calx::vjp(f, 1.0, k);
  (void)r;
}
