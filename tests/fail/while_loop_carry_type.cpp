// A body that changes the carry's structure (two values in, one out).
// EXPECT: calx::while_loop: body_fn\(carry\) must return a carry of the type of init
// ERRORS: 1
#include <calx/calx.hpp>

#include <array>

int main() {
  const double d = calx::jacfwd([](auto x) {
    const auto [c, k] = calx::while_loop([](auto s) { return s[0] > 1.0; }, [](auto s) { return s[0] * 0.5; },
                                         std::array{x, 0.0 * x});
    return c;
  })(10.0);
  (void)d;
}
