// The fix: integer bounds.
#include <calx/calx.hpp>

int main() {
  const double v = calx::grad([](auto x) {
    return calx::fori_loop(0, 3, [](auto, auto c) { return c * 0.5; }, x);
  })(1.0);
  (void)v;
}
