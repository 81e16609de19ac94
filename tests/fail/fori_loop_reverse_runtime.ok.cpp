// The fix: forward mode (a runtime count is fine there), or a count known at compile time.
#include <calx/calx.hpp>

int main() {
  constexpr auto f = [](auto x, auto n) { return calx::fori_loop(0, n, [](auto, auto c) { return c * calx::sin(c); }, x); };
  const double d = calx::jacfwd(f, calx::argnums<0>)(0.5, 10);
  constexpr auto f10 = [](auto x) { return calx::fori_loop(0, 10, [](auto, auto c) { return c * calx::sin(c); }, x); };
  const double g = calx::grad(f10)(0.5);
  (void)d;
  (void)g;
}
