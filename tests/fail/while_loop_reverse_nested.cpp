// Reverse mode through a while_loop inside a fori_loop's body: the refusal is recorded in
// the body's vjp program, which is made after the outer program; it must still stop the
// build at the refusal (never run the body's vjp on the zeros a refusing rule answers).
// EXPECT: calx::while_loop: reverse mode is not supported; use forward mode
#include <calx/calx.hpp>

int main() {
  constexpr auto f = [](auto x) {
    return calx::fori_loop(
        0, 3,
        [](auto, auto c) {
          return calx::while_loop([](auto v) { return v > 1.0; }, [](auto v) { return 0.5 * v; }, c) + c;
        },
        x);
  };
  const double g = calx::grad(f)(5.0);
  (void)g;
}
