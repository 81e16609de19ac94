// xs as a std::array of numbers: scan runs over the leading axis of calx::tensors.
// EXPECT: calx::scan: xs must be a calx::tensor of floats or doubles
// ERRORS: 1
#include <calx/calx.hpp>

#include <array>
#include <utility>

int main() {
  const std::array<double, 4> xs{};
  const double v = calx::grad([](auto c, const auto& x) {
    const auto [end, ys] = calx::scan([](auto s, auto u) { return std::pair{s * u, s}; }, c, x);
    return end;
  })(1.0, xs);
  (void)v;
}
