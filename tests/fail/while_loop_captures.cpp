// A while_loop body that captures: on traced values it is traced once, from its type alone.
// EXPECT: calx::while_loop: on traced values cond_fn and body_fn must be stateless
// ERRORS: 1
#include <calx/calx.hpp>

int main() {
  const double d = calx::jacfwd([](auto x) {
    const auto rate = 0.5 * x;
    return calx::while_loop([](auto c) { return c > 1.0; }, [rate](auto c) { return c * rate; }, x);
  })(10.0);
  (void)d;
}
