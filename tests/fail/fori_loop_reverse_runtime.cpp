// Reverse mode through calx::fori_loop whose trip count is an argument of the traced
// function: the steps to store are not known when the program is compiled (JAX refuses it too).
// EXPECT: calx::fori_loop: reverse mode needs a trip count known at compile time
// ERRORS: 1
#include <calx/calx.hpp>

int main() {
  constexpr auto f = [](auto x, auto n) { return calx::fori_loop(0, n, [](auto, auto c) { return c * calx::sin(c); }, x); };
  const double g = calx::grad(f)(0.5, 10);
  (void)g;
}
