// calx::vjp of a lambda with captures.
// EXPECT: calx::vjp: the function captures state
// ERRORS: 1
#include <calx/calx.hpp>

int main() {
  double k = 3.0;
  auto f = [k](auto x) { return k * x; };
  auto r = calx::vjp(f, 1.0);
  (void)r;
}
