// The fix: pass what the function needs as an argument.
#include <calx/calx.hpp>

int main() {
  const double v = calx::grad([](auto x, auto scale) {
    return calx::checkpoint([](auto y, auto s) { return calx::sin(y) * s; })(x, scale);
  })(1.0, 2.0);
  (void)v;
}
