// The fix: a comparison.
#include <calx/calx.hpp>

int main() {
  const double d = calx::jacfwd([](auto x) {
    return calx::while_loop([](auto c) { return c > 1.0; }, [](auto c) { return c * 0.5; }, x);
  })(10.0);
  (void)d;
}
