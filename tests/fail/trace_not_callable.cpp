// A two-argument function traced with one argument.
// EXPECT: cannot be called with these arguments
// ERRORS: 1
#include <calx/calx.hpp>

int main() {
  auto f = [](auto x, auto y) { return x * y; };
  auto p = calx::trace(f, 1.0);
  (void)p;
}
