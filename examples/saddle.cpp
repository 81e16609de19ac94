// A saddle point by gradient descent inside gradient descent (GradBench's "saddle", after
// Siskind and Pearlmutter): min over p of max over q of f(p, q) = |p|^2 - |q|^2. The inner
// maximisation is a while_loop, traced, with its gradient taken in its body; the outer
// minimisation runs in C++ on the inner one's value and its derivative in p, taken in
// forward mode through the while_loop (examples/particle.cpp checks reverse mode too). CTest
// compares the output with examples/saddle.out; docs/control-flow.md ("Nested derivatives")
// describes it.
#include <calx/calx.hpp>

#include <array>
#include <cmath>
#include <cstdio>
#include <tuple>

// [saddle]
constexpr auto f = [](auto p0, auto p1, auto q0, auto q1) { return (p0 * p0 + p1 * p1) - (q0 * q0 + q1 * q1); };

// One step of GradBench's gradient descent on cost(q; p), as data: the step eta grows after
// 10 successes and halves on a failure; `go` turns 0 where the gradient or the step is below
// 1e-5. s: q0, q1, cost, its gradient g0 g1, eta, successes, go, then p0 p1 (carried along:
// a loop body captures nothing).
template <class Cost>
constexpr auto descent_step = [](auto s) {
  const auto [q0, q1, c, g0, g1, eta, n, go, p0, p1] = s;
  const auto n0 = 0.0 * n;
  const auto small_gradient = calx::sqrt(g0 * g0 + g1 * g1) <= 1e-5;
  const auto grow = n == 10.0;
  const auto r0 = q0 - eta * g0, r1 = q1 - eta * g1;
  const auto small_step = calx::sqrt((r0 - q0) * (r0 - q0) + (r1 - q1) * (r1 - q1)) <= 1e-5;
  const auto c_next = Cost{}(r0, r1, p0, p1);
  const auto [h0, h1] = calx::grad(Cost{}, calx::argnums<0, 1>)(r0, r1, p0, p1);
  const auto stop = small_gradient || (!grow && small_step);
  const auto accept = !stop && !grow && c_next < c;
  const auto halve = !stop && !grow && !(c_next < c);
  return std::array{calx::where(accept, r0, q0),
                    calx::where(accept, r1, q1),
                    calx::where(accept, c_next, c),
                    calx::where(accept, h0, g0),
                    calx::where(accept, h1, g1),
                    calx::where(grow, 2.0 * eta, calx::where(halve, 0.5 * eta, eta)),
                    calx::where(accept, n + 1.0, calx::where(stop, n, n0)),
                    calx::where(stop, n0, n0 + 1.0),
                    p0,
                    p1};
};

// The cost the inner loop minimises: -f, so that it maximises f over q.
struct inner_cost {
  constexpr auto operator()(auto q0, auto q1, auto p0, auto p1) const { return -f(p0, p1, q0, q1); }
};

// max over q of f(p, q), from q = (1, 1): the inner descent as one while_loop.
constexpr auto inner_max = [](auto p0, auto p1) {
  const auto one = 0.0 * p0 + 1.0;
  const auto [g0, g1] = calx::grad(inner_cost{}, calx::argnums<0, 1>)(one, one, p0, p1);
  const auto s = calx::while_loop([](auto s) { return s[7] > 0.5; }, descent_step<inner_cost>,
                                  std::array{one, one, inner_cost{}(one, one, p0, p1), g0, g1, 1e-5 * one, 0.0 * one,
                                             one, p0, p1});
  return f(p0, p1, s[0], s[1]);
};

// The same descent in C++ for the outer minimisation, on calx's value and derivative.
template <class F, class G>
std::array<double, 2> argmin(F value, G gradient, std::array<double, 2> p) {
  double c = value(p[0], p[1]), eta = 1e-5;
  auto [g0, g1] = gradient(p[0], p[1]);
  for (int n = 0; std::hypot(g0, g1) > 1e-5;) {
    if (n == 10) {
      eta *= 2, n = 0;
      continue;
    }
    const std::array<double, 2> r{p[0] - eta * g0, p[1] - eta * g1};
    if (std::hypot(r[0] - p[0], r[1] - p[1]) <= 1e-5) break;
    if (const double c_next = value(r[0], r[1]); c_next < c) {
      p = r, c = c_next, ++n;
      std::tie(g0, g1) = gradient(p[0], p[1]);
    } else {
      eta /= 2, n = 0;
    }
  }
  return p;
}
// [saddle]

int main() {
  // [saddle_use]
  const auto p = argmin(inner_max, calx::jacfwd(inner_max, calx::argnums<0, 1>), {1.0, 1.0});
  // (Tested against bounds: the descent stops within its 1e-5 tolerances, where the last
  // digits, and the signs of values near 0, depend on rounding.)
  const double top = inner_max(p[0], p[1]);
  std::printf("saddle at p = 0 within 1e-3: %s, max over q of f(p, q) within 1e-6 of 0: %s\n",
              std::hypot(p[0], p[1]) < 1e-3 ? "yes" : "no", std::abs(top) < 1e-6 ? "yes" : "no");
  // [saddle_use]

  // Checks: the derivative through the inner loop against central differences, and the
  // saddle at the origin (the descent stops within its 1e-5 tolerances).
  const double h = 1e-6;
  const auto [d0, d1] = calx::jacfwd(inner_max, calx::argnums<0, 1>)(0.5, -0.25);
  const double fd0 = (inner_max(0.5 + h, -0.25) - inner_max(0.5 - h, -0.25)) / (2 * h);
  const double fd1 = (inner_max(0.5, -0.25 + h) - inner_max(0.5, -0.25 - h)) / (2 * h);
  std::printf("d max/dp at (0.5, -0.25): (%.6f, %.6f), central differences (%.6f, %.6f)\n", d0, d1, fd0, fd1);
  const bool derivative_ok = std::abs(d0 - fd0) < 1e-5 && std::abs(d1 - fd1) < 1e-5;
  const bool saddle_ok = std::hypot(p[0], p[1]) < 1e-3;
  if (!derivative_ok || !saddle_ok) {
    std::puts("MISMATCH");
    return 1;
  }
  return 0;
}
