// The fix: pass what a branch needs as an operand.
#include <calx/calx.hpp>
#include <calx/cond.hpp>

int main() {
  auto g = calx::grad([](auto x) {
    const auto scale = 2.0 * x;
    return calx::cond(x > 0.0, [](auto a, auto s) { return a * s; }, [](auto a, auto) { return a; }, x, scale);
  })(1.0);
  (void)g;
}
