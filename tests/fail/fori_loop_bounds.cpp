// A real number as a loop bound: fori_loop counts with integers.
// EXPECT: calx::fori_loop: lower and upper must be integers
// ERRORS: 1
#include <calx/calx.hpp>

int main() {
  const double v = calx::grad([](auto x) {
    return calx::fori_loop(0, 2.5, [](auto, auto c) { return c * 0.5; }, x);
  })(1.0);
  (void)v;
}
