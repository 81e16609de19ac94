// The fix: outputs of floats, doubles or tensors (each stacked along a new leading axis).
#include <calx/calx.hpp>

#include <array>
#include <utility>

int main() {
  calx::tensor<double, 4> xs;
  const double v = calx::grad([](auto c, const auto& x) {
    const auto [end, ys] =
        calx::scan([](auto s, auto u) { return std::pair{s * u, std::pair{1.0, calx::tensor<double, 2>{} + s}}; }, c, x);
    return end;
  })(1.0, xs);
  (void)v;
}
