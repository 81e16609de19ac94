// The fix: the tensor's elements as scalars of the carry (or the tensor outside the loop).
#include <calx/calx.hpp>

#include <array>

int main() {
  const double v = calx::grad([](auto x) {
    const auto [c, t0, t1] = calx::fori_loop(0, 3, [](auto, auto s) { return std::array{s[0] * 0.5, s[1], s[2]}; },
                                             std::array{x, 0.0 * x, 0.0 * x});
    return c;
  })(1.0);
  (void)v;
}
