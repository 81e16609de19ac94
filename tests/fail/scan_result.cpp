// A scan step that returns only the next carry: f(carry, x) returns the carry and this
// step's output together.
// EXPECT: calx::scan: f\(carry, x\) must return std::pair\{carry, y\}
// ERRORS: 1
#include <calx/calx.hpp>

int main() {
  calx::tensor<double, 4> xs;
  const double v = calx::grad([](auto c, const auto& x) {
    const auto [end, ys] = calx::scan([](auto s, auto u) { return s * u; }, c, x);
    return end;
  })(1.0, xs);
  (void)v;
}
