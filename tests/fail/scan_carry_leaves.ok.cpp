// The fix: scalars only in the carry.
#include <calx/calx.hpp>

#include <array>
#include <utility>

int main() {
  calx::tensor<double, 4> xs;
  const double v = calx::grad([](auto c, const auto& x) {
    const auto [end, ys] =
        calx::scan([](auto s, auto u) { return std::pair{std::array{s[0] * u, s[1]}, u}; }, std::array{c, 0.0 * c}, x);
    return end[0];
  })(1.0, xs);
  (void)v;
}
