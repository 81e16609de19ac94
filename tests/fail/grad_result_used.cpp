// A refused call whose result is then used (bound, converted, indexed, combined): exactly one
// error, calx's, and no follow-on errors about the result's type.
// EXPECT: calx::value_and_grad: the function captures state
// ERRORS: 1
#include <calx/calx.hpp>

int main() {
  double k = 3.0;
  auto f = [k](auto x) { return k * x * x; };
  auto [v, g] = calx::value_and_grad(f)(2.0);
  double d = g + 2.0 * v;
  auto r = calx::value_and_grad(f)(1.0);
  double e = r[0] - 1.0;
  (void)d;
  (void)e;
}
