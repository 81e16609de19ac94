// The fix: scalar outputs per step (each stacked into a tensor over the steps).
#include <calx/calx.hpp>

#include <array>
#include <utility>

int main() {
  calx::tensor<double, 4> xs;
  const double v = calx::grad([](auto c, const auto& x) {
    const auto [end, ys] = calx::scan([](auto s, auto u) { return std::pair{s * u, std::array{u, s}}; }, c, x);
    return end;
  })(1.0, xs);
  (void)v;
}
