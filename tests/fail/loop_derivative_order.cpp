// A fourth derivative through calx::fori_loop: each order is a loop op of its own type,
// compiled wherever the loop is, so the rules stop at the third (docs/control-flow.md,
// "How far derivatives go").
// EXPECT: calx: derivatives through fori_loop, scan and while_loop go up to order 3
// ERRORS: 1
#include <calx/calx.hpp>

int main() {
  constexpr auto f = [](auto x) { return calx::fori_loop(0, 3, [](auto, auto c) { return c * calx::sin(c); }, x); };
  const double d4 = calx::grad(calx::grad(calx::grad(calx::grad(f))))(0.5);
  (void)d4;
}
