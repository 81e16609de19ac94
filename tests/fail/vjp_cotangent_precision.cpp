// A pullback of a double function called with a float cotangent: the cotangent has the
// output's precision (as in JAX, whose vjp rejects a cotangent of another dtype).
// EXPECT: calx::vjp: the pullback takes one cotangent with the structure and precision of the function's output
// ERRORS: 1
#include <calx/calx.hpp>

int main() {
  auto f = [](auto x, auto y) { return x * y; };
  auto [v, pb] = calx::vjp(f, 1.0, 2.0);
  auto ct = pb(1.0f);
  (void)v;
  (void)ct;
}
