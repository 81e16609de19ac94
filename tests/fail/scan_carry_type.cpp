// A scan step whose carry changes type between steps.
// EXPECT: calx::scan: f\(carry, x\).first must be a carry of the type of init
// ERRORS: 1
#include <calx/calx.hpp>

#include <array>
#include <utility>

int main() {
  calx::tensor<double, 4> xs;
  const double v = calx::grad([](auto c, const auto& x) {
    const auto [end, ys] = calx::scan(
        [](auto s, auto u) { return std::pair{std::array{s[0] * u, s[1], s[0]}, u}; }, std::array{c, c}, x);
    return end[0];
  })(1.0, xs);
  (void)v;
}
