// The fix: forward mode, which runs the loop of the body's jvp.
#include <calx/calx.hpp>

int main() {
  constexpr auto f = [](auto x) {
    return calx::while_loop([](auto c) { return c > 1.0; }, [](auto c) { return c * 0.5; }, x);
  };
  const double d = calx::jacfwd(f)(10.0);
  (void)d;
}
