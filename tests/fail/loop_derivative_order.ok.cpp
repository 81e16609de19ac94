// The fix: the third order through the loop, or the loop written out (a C++ loop over
// traced values: every order, its cost growing with the trip count).
#include <calx/calx.hpp>

int main() {
  constexpr auto f = [](auto x) { return calx::fori_loop(0, 3, [](auto, auto c) { return c * calx::sin(c); }, x); };
  const double d3 = calx::grad(calx::grad(calx::grad(f)))(0.5);
  constexpr auto unrolled = [](auto x) {
    for (int i = 0; i < 3; ++i) x = x * calx::sin(x);
    return x;
  };
  const double d4 = calx::grad(calx::grad(calx::grad(calx::grad(unrolled))))(0.5);
  (void)d3;
  (void)d4;
}
