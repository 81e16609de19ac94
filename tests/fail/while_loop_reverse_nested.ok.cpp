// The fix: an inner loop with a trip count known at compile time (fori_loop), which reverse
// mode runs back over its stored carries.
#include <calx/calx.hpp>

int main() {
  constexpr auto f = [](auto x) {
    return calx::fori_loop(
        0, 3, [](auto, auto c) { return calx::fori_loop(0, 3, [](auto, auto v) { return 0.5 * v; }, c) + c; }, x);
  };
  const double g = calx::grad(f)(5.0);
  (void)g;
}
