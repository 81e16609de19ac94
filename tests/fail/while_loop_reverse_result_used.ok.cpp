// The fix: forward mode (jacfwd) through the while_loop, the results used the same way.
#include <calx/calx.hpp>

#include <array>

constexpr auto halve = [](auto x) {
  return calx::while_loop([](auto c) { return c > 1.0; }, [](auto c) { return c * 0.5; }, x);
};

auto slope(double x) { return calx::jacfwd(halve)(x); }

int main() {
  const auto g = calx::jacfwd(halve)(10.0);
  const double braced{calx::jacfwd(halve)(3.0)};
  const std::array<double, 2> pair{calx::jacfwd(halve)(2.0), 1.0};
  const double sum = g * 2.0 + braced - pair[0];
  const double v = halve(4.0), d = calx::jacfwd(halve)(4.0);
  return static_cast<int>(sum + slope(5.0) + v + d);
}
