// A scan over traced xs from a carry of plain numbers: the result's type (numbers) could
// not hold the traced values scan computes.
// EXPECT: calx::scan: xs is traced but the carry holds plain numbers
// ERRORS: 1
#include <calx/calx.hpp>

#include <utility>

int main() {
  calx::tensor<double, 4> xs;
  const double g = calx::grad([](auto w, const auto& x) {
    const auto [end, ys] = calx::scan([](auto s, auto u) { return std::pair{s + u, s}; }, 0.0, x);
    return w * end;
  })(2.0, xs);
  (void)g;
}
