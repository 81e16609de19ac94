// calx::trace of a lambda with captures: calx traces functions at compile time, so they
// must be stateless.
// EXPECT: captures state|has state
// ERRORS: 1
#include <calx/calx.hpp>

int main() {
  double k = 2.0;
  auto f = [k](auto x) { return x * k; };
  auto p = calx::trace(f, 1.0);
  (void)p;
}
