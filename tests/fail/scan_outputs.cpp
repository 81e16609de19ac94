// An integer per-step output: ys stack floats, doubles and tensors of them.
// EXPECT: calx::scan: f\(carry, x\).second must hold float, double or traced scalars and calx::tensors
// ERRORS: 1
#include <calx/calx.hpp>

#include <utility>

int main() {
  calx::tensor<double, 4> xs;
  const double v = calx::grad([](auto c, const auto& x) {
    const auto [end, ys] = calx::scan([](auto s, auto u) { return std::pair{s * u, 1}; }, c, x);
    return end;
  })(1.0, xs);
  (void)v;
}
