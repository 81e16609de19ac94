// A float and a double argument in one call: calx compiles one program per precision.
// EXPECT: mix float and double
// ERRORS: 1
#include <calx/calx.hpp>

int main() {
  auto f = [](auto x, auto y) { return x * y; };
  auto p = calx::trace(f, 1.0f, 2.0);
  (void)p;
}
