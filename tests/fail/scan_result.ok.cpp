// The fix: return std::pair{carry, y} (std::tuple{} when the step outputs nothing).
#include <calx/calx.hpp>

#include <tuple>
#include <utility>

int main() {
  calx::tensor<double, 4> xs;
  const double v = calx::grad([](auto c, const auto& x) {
    const auto [end, ys] = calx::scan([](auto s, auto u) { return std::pair{s * u, std::tuple{}}; }, c, x);
    return end;
  })(1.0, xs);
  (void)v;
}
