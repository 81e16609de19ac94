// calx::argnums<2> for a function called with two arguments.
// EXPECT: calx::grad: an index in calx::argnums is out of range
// ERRORS: 1
#include <calx/calx.hpp>

int main() {
  auto f = [](auto x, auto y) { return x * y; };
  auto g = calx::grad(f, calx::argnums<2>)(1.0, 2.0);
  (void)g;
}
