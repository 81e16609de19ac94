// A derivative refused by a rule (reverse mode through while_loop), its result then used as
// users write it: deduced with auto, braced into a double, combined, returned from a
// function whose return type is deduced. Exactly one error, the refusal.
// EXPECT: calx::while_loop: reverse mode is not supported; use forward mode
// ERRORS: 1
#include <calx/calx.hpp>

#include <array>

constexpr auto halve = [](auto x) {
  return calx::while_loop([](auto c) { return c > 1.0; }, [](auto c) { return c * 0.5; }, x);
};

auto slope(double x) { return calx::grad(halve)(x); }

int main() {
  const auto g = calx::grad(halve)(10.0);
  const double braced{calx::grad(halve)(3.0)};
  const std::array<double, 2> pair{calx::grad(halve)(2.0), 1.0};
  const double sum = g * 2.0 + braced - pair[0];
  const auto [v, d] = calx::value_and_grad(halve)(4.0);
  return static_cast<int>(sum + slope(5.0) + v + d);
}
