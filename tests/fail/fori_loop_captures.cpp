// A body that captures: on traced values the body is traced once, from its type alone.
// EXPECT: calx::fori_loop: on traced values the body must be stateless
// ERRORS: 1
#include <calx/calx.hpp>

int main() {
  const double v = calx::grad([](auto x) {
    const auto rate = 0.5 * x;
    return calx::fori_loop(0, 3, [rate](auto, auto c) { return c * rate; }, x);
  })(1.0);
  (void)v;
}
