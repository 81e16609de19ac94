// A per-step output that is a tensor: ys stack scalars into 1-D tensors.
// EXPECT: calx::scan: f\(carry, x\).second must hold float, double or traced scalars
#include <calx/calx.hpp>

#include <utility>

int main() {
  calx::tensor<double, 4> xs;
  const double v = calx::grad([](auto c, const auto& x) {
    const auto [end, ys] = calx::scan(
        [](auto s, auto u) { return std::pair{s * u, calx::tensor<double, 2>{}}; }, c, x);
    return end;
  })(1.0, xs);
  (void)v;
}
