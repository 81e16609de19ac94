// Reverse mode through calx::while_loop: the steps to store are not known before the loop
// runs (JAX refuses it too).
// EXPECT: calx::while_loop: reverse mode is not supported; use forward mode
// ERRORS: 1
#include <calx/calx.hpp>

int main() {
  constexpr auto f = [](auto x) {
    return calx::while_loop([](auto c) { return c > 1.0; }, [](auto c) { return c * 0.5; }, x);
  };
  const double g = calx::grad(f)(10.0);
  (void)g;
}
