// An integer counter in the carry: a scan carries floats, doubles and tensors of them.
// EXPECT: calx::scan: the carry must hold float, double or traced scalars and calx::tensors
// ERRORS: 1
#include <calx/calx.hpp>

#include <utility>

int main() {
  calx::tensor<double, 4> xs;
  const double v = calx::grad([](auto c, const auto& x) {
    const auto [end, ys] = calx::scan([](auto s, auto u) { return std::pair{std::pair{s.first * u, s.second + 1}, u}; },
                                      std::pair{c, 0}, x);
    return end.first;
  })(1.0, xs);
  (void)v;
}
