// xs as a 2-D tensor: scan runs over 1-D tensors (one value per step) for now.
// EXPECT: calx::scan: xs must be a 1-D calx::tensor
#include <calx/calx.hpp>

#include <utility>

int main() {
  calx::tensor<double, 4, 2> xs;
  const double v = calx::grad([](auto c, const auto& x) {
    const auto [end, ys] = calx::scan([](auto s, auto u) { return std::pair{s * u, s}; }, c, x);
    return end;
  })(1.0, xs);
  (void)v;
}
