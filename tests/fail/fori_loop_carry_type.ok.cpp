// The fix: return the carry's structure (here two values) from every step.
#include <calx/calx.hpp>

#include <array>

int main() {
  const double v = calx::grad([](auto x) {
    const auto c = calx::fori_loop(0, 3, [](auto, auto c) { return std::array{c[0] * c[1], c[0]}; }, std::array{x, x});
    return c[0];
  })(1.0);
  (void)v;
}
