// The fix: one cotangent shaped like the output (a scalar here); the result holds one
// cotangent per primal.
#include <calx/calx.hpp>

#include <tuple>

int main() {
  auto f = [](auto x, auto y) { return x * y; };
  auto [v, pb] = calx::vjp(f, 1.0, 2.0);
  auto [cx, cy] = pb(1.0);
  (void)v;
  (void)cx;
  (void)cy;
}
