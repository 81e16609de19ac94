// Control flow: calx::cond as one IR node whose branches are sub-programs, calx::switch_
// as a chain of them; the loops are in control-flow-loops.cpp and control-flow-scan.cpp
// (three TUs, each within the compile budget of an example). The output is checked by CTest
// (examples/control-flow.out); docs/control-flow.md quotes the snippets between markers.
#include <calx/calx.hpp>
#include <calx/cond.hpp>

#include <array>
#include <cmath>
#include <cstdio>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

// [cond]
constexpr auto root_or_square = [](auto x, auto y) {
  return calx::cond(
      x > 0.0,
      [](auto a, auto b) { return calx::sqrt(a) * b; },  // true_fn
      [](auto a, auto b) { return a * a + b; },          // false_fn
      x, y);                                             // the operands both take
};
// [cond]

// [where]
constexpr auto with_where = [](auto x, auto y) {
  return calx::where(x > 0.0, calx::sqrt(x) * y, x * x + y);
};
// [where]

// [switch]
constexpr auto activations = std::tuple{
    [](auto v) { return calx::tanh(v); },     // 0
    [](auto v) { return calx::sigmoid(v); },  // 1
    [](auto v) { return calx::softplus(v); }  // 2, and every index above
};
constexpr auto activate = [](auto kind, auto v) { return calx::switch_(kind, activations, v); };
// [switch]

int main() {
  // [trace]
  std::printf("%s\n", calx::to_string(calx::trace(root_or_square, 4.0, 2.0)).c_str());
  // [trace]

  // [grad]
  const double at_positive = calx::grad(root_or_square)(4.0, 2.0);   // d/dx sqrt(x) y = y / (2 sqrt(x))
  const double at_negative = calx::grad(root_or_square)(-3.0, 2.0);  // d/dx x^2 + y = 2x
  const double second = calx::grad(calx::grad(root_or_square))(-3.0, 2.0);
  // [grad]
  std::printf("cond: f(4, 2) = %.6f, f(-3, 2) = %.6f\n", root_or_square(4.0, 2.0), root_or_square(-3.0, 2.0));
  std::printf("cond: df/dx at 4: %.6f, at -3: %.6f, d2f/dx2 at -3: %.6f\n", at_positive, at_negative, second);

  // [pitfall]
  const double poisoned = calx::grad(with_where)(-3.0, 2.0);  // NaN: 0 * d sqrt(x)/dx at x = -3
  // [pitfall]
  std::printf("where: f(-3, 2) = %.6f, df/dx at -3: %s\n", with_where(-3.0, 2.0),
              std::isnan(poisoned) ? "nan" : std::to_string(poisoned).c_str());

  // [vmap]
  const std::vector<double> xs{-2.0, -0.5, 0.25, 4.0}, ys{1.0, 1.0, 2.0, 2.0};
  auto values = calx::vmap(root_or_square)(xs, ys);               // a select per lane
  auto slopes = calx::vmap(calx::grad(root_or_square))(xs, ys);
  // [vmap]
  for (std::size_t i = 0; i < xs.size(); ++i)
    std::printf("sample %zu: x %5.2f  f %.6f  df/dx %.6f\n", i, xs[i], values[i], slopes[i]);

  // [switch_grad]
  const auto act = calx::trace(activate, 0, 0.5);            // kind: an integer argument, traced
  const double slope = calx::grad(activate, calx::argnums<1>)(2, 0.5);  // d softplus / dv = sigmoid(v)
  // [switch_grad]
  for (int kind = 0; kind < 4; ++kind) std::printf("switch_ kind %d: %.6f\n", kind, act(kind, 0.5));
  std::printf("switch_ d/dv at kind 2: %.6f (sigmoid(0.5) = %.6f)\n", slope, 1.0 / (1.0 + std::exp(-0.5)));
}
