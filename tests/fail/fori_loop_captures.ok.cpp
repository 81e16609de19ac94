// The fix: put what the body needs into the carry.
#include <calx/calx.hpp>

#include <array>

int main() {
  const double v = calx::grad([](auto x) {
    const auto rate = 0.5 * x;
    const auto c = calx::fori_loop(0, 3, [](auto, auto c) { return std::array{c[0] * c[1], c[1]}; }, std::array{x, rate});
    return c[0];
  })(1.0);
  (void)v;
}
