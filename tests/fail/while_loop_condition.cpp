// A while_loop condition that returns a number instead of a comparison.
// EXPECT: calx::while_loop: cond_fn\(carry\) must return a bool or a traced comparison
// ERRORS: 1
#include <calx/calx.hpp>

int main() {
  const double d = calx::jacfwd([](auto x) {
    return calx::while_loop([](auto c) { return c - 1.0; }, [](auto c) { return c * 0.5; }, x);
  })(10.0);
  (void)d;
}
