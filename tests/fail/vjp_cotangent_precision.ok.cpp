// The fix: a cotangent in the output's precision.
#include <calx/calx.hpp>

int main() {
  auto f = [](auto x, auto y) { return x * y; };
  auto [v, pb] = calx::vjp(f, 1.0, 2.0);
  auto ct = pb(1.0);
  (void)v;
  (void)ct;
}
