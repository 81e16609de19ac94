// The fix: a calx::tensor (a pair of them gives x as a pair; a 2-D one gives rows).
#include <calx/calx.hpp>

#include <utility>

int main() {
  calx::tensor<double, 4> a, b;
  const double v = calx::grad([](auto c, const auto& x, const auto& y) {
    const auto [end, ys] =
        calx::scan([](auto s, auto u) { return std::pair{s * u.first + u.second, s}; }, c, std::pair{x, y});
    return end;
  })(1.0, a, b);
  (void)v;
}
