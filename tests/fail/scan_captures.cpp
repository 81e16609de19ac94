// A scan step that captures: on traced values it is traced once, from its type alone.
// EXPECT: calx::scan: on traced values f must be stateless
// ERRORS: 1
#include <calx/calx.hpp>

#include <utility>

int main() {
  calx::tensor<double, 4> xs;
  const double v = calx::grad([](auto c, const auto& x) {
    const auto rate = 0.5 * c;
    const auto [end, ys] = calx::scan([rate](auto s, auto u) { return std::pair{s * rate + u, s}; }, c, x);
    return end;
  })(1.0, xs);
  (void)v;
}
