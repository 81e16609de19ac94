// A carry holding a tensor beside a traced scalar: a scan's carry is scalars.
// EXPECT: calx::scan: the carry must hold float, double or traced scalars
#include <calx/calx.hpp>

#include <utility>

int main() {
  calx::tensor<double, 4> xs;
  const double v = calx::grad([](auto c, const auto& x) {
    const auto [end, ys] = calx::scan([](auto s, auto u) { return std::pair{std::pair{s.first * u, s.second}, u}; },
                                      std::pair{c, calx::tensor<double, 2>{}}, x);
    (void)end;
    return c;
  })(1.0, xs);
  (void)v;
}
