// The fix: return the carry's structure from every step.
#include <calx/calx.hpp>

#include <array>

int main() {
  const double d = calx::jacfwd([](auto x) {
    const auto [c, k] = calx::while_loop([](auto s) { return s[0] > 1.0; },
                                         [](auto s) { return std::array{s[0] * 0.5, s[1] + 1.0}; }, std::array{x, 0.0 * x});
    return c;
  })(10.0);
  (void)d;
}
