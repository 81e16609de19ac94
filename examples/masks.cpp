// Masks: comparisons combined with &&, ||, ! (and &, |, ~, calx::logical_and/or/not), on
// traced scalars and tensors, as where, cond and while_loop predicates; calx::any and
// calx::all. docs/control-flow.md ("Masks") quotes it; CTest compares its output with
// examples/masks.out.
#include <calx/calx.hpp>

#include <cstdio>
#include <string>
#include <vector>

// [bounce]
// A ball at height y with velocity v bounces (losing a fifth of its speed) when it is
// below the floor and moving down.
constexpr auto bounce = [](auto y, auto v) {
  const auto hits = (y < 0.0) && (v < 0.0);
  return calx::where(hits, -0.8 * v, v);
};
// [bounce]

// [any_all]
// A point inside the box [-1, 1]^8 costs its squared norm; outside, its largest coordinate.
constexpr auto box_cost = [](const auto& p) {  // p: calx::tensor<double, 8>
  const auto inside = (p > -1.0) & (p < 1.0);
  return calx::where(calx::all(inside), calx::sum(p * p), calx::max(calx::abs(p)));
};
// [any_all]

// [while_mask]
// Halve while above 1, unless the value is too large to be worth it.
constexpr auto halve = [](auto x) {
  return calx::while_loop([](auto v) { return (v > 1.0) && !(v > 1e6); }, [](auto v) { return 0.5 * v; }, x);
};
// [while_mask]

int main() {
  // [bounce_use]
  std::puts(calx::to_string(calx::trace(bounce, 1.0, 1.0)).c_str());
  const double up = bounce(-0.1, -2.0), away = bounce(-0.1, 2.0);  // on numbers: plain bools
  const double dv = calx::grad(bounce, calx::argnums<1>)(-0.1, -2.0);  // -0.8 where it hits
  const std::vector<double> ys{-0.1, 0.5, -0.2, -0.3}, vs{-2.0, -1.0, 1.0, -0.5};
  const auto after = calx::vmap(bounce)(ys, vs);  // each lane its own mask
  // [bounce_use]
  std::printf("bounce: %g %g, d/dv %g, vmap %g %g %g %g\n", up, away, dv, after[0], after[1], after[2], after[3]);

  calx::tensor<double, 8> p;
  for (std::size_t k = 0; k < p.size; ++k) p[k] = 0.1 * static_cast<double>(k) - 0.3;
  const double inside = box_cost(p);
  const calx::tensor<double, 8> slope = calx::grad(box_cost)(p);
  p[7] = 1.5;
  const double outside = box_cost(p);
  std::printf("box: %g (inside), %g (outside), d/dp0 inside %g\n", inside, outside, slope[0]);

  std::printf("halve: %g %g %g, d/dx at 5: %g\n", halve(5.0), halve(0.5), halve(1e7),
              calx::jvp(halve, std::tuple{5.0}, std::tuple{1.0}).second);
}
