// The fix: the counter as a double.
#include <calx/calx.hpp>

#include <utility>

int main() {
  calx::tensor<double, 4> xs;
  const double v = calx::grad([](auto c, const auto& x) {
    const auto [end, ys] = calx::scan(
        [](auto s, auto u) { return std::pair{std::pair{s.first * u, s.second + 1.0}, u}; }, std::pair{c, 0.0 * c}, x);
    return end.first;
  })(1.0, xs);
  (void)v;
}
