// A body whose carry changes type between steps: the loop's carry has one type.
// EXPECT: calx::fori_loop: body\(i, carry\) must return a carry of the type of init
// ERRORS: 1
#include <calx/calx.hpp>

#include <array>

int main() {
  const double v = calx::grad([](auto x) {
    const auto c = calx::fori_loop(0, 3, [](auto, auto c) { return std::array{c[0] * c[1], c[0], c[1]}; },
                                   std::array{x, x});
    return c[0];
  })(1.0);
  (void)v;
}
