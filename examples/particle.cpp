// A charged particle (GradBench's "particle", after Siskind and Pearlmutter): Euler steps
// until the particle crosses the x axis, each step's force the gradient of a potential (a
// derivative inside the loop body), and a control w found by gradient descent on the
// squared miss distance (a derivative of the whole loop: nested derivatives). The inner
// gradient is taken in reverse mode (calx::jacfwd(potential, calx::argnums<0, 1>) is the
// forward one: GradBench's "ff"; each variant is a TU's worth of compile time,
// docs/performance.md), the outer in forward mode through the while_loop: GradBench's "fr";
// the outer derivative is checked in reverse mode too ("rr": JAX refuses reverse mode through
// a while_loop, calx stores the steps' carries). CTest compares the output with
// examples/particle.out; docs/control-flow.md ("Nested derivatives") quotes it.
#include <calx/calx.hpp>

#include <array>
#include <cmath>
#include <cstdio>

// [particle]
// The potential at (x0, x1) of two unit charges, at (10, 10 - w) and (10, 0).
constexpr auto potential = [](auto x0, auto x1, auto w) {
  const auto d0 = calx::sqrt((x0 - 10.0) * (x0 - 10.0) + (x1 - (10.0 - w)) * (x1 - (10.0 - w)));
  const auto d1 = calx::sqrt((x0 - 10.0) * (x0 - 10.0) + x1 * x1);
  return 1.0 / d0 + 1.0 / d1;
};


// Euler steps of 0.1 from (0, 8) at velocity (0.75, 0) while the next position is above
// the axis; then the crossing, by linear interpolation, and its squared distance to 0.
constexpr double dt = 0.1;
constexpr auto miss = [](auto w) {
  const auto s = calx::while_loop(
      [](auto s) { return s[1] + dt * s[3] > 0.0; },  // s: x0, x1, v0, v1, w
      [](auto s) {
        const auto [x0, x1, v0, v1, w] = s;
        const auto [p0, p1] = calx::grad(potential, calx::argnums<0, 1>)(x0, x1, w);  // the force is -(p0, p1)
        return std::array{x0 + dt * v0, x1 + dt * v1, v0 - dt * p0, v1 - dt * p1, w};
      },
      std::array{0.0 * w, 0.0 * w + 8.0, 0.0 * w + 0.75, 0.0 * w, w});
  const auto x0 = s[0] - s[1] / s[3] * s[2];
  return x0 * x0;
};

// Gradient descent with GradBench's step control: the step grows after 10 successes and
// halves on a failure; it stops where the gradient or the step is below 1e-5.
template <class F, class G>
double argmin(F f, G g, double x) {
  double fx = f(x), gx = g(x), eta = 1e-5;
  for (int i = 0; std::abs(gx) > 1e-5;) {
    if (i == 10) {
      eta *= 2;
      i = 0;
      continue;
    }
    const double next = x - eta * gx;
    if (std::abs(next - x) <= 1e-5) break;
    if (const double f_next = f(next); f_next < fx) {
      x = next, fx = f_next, gx = g(next), ++i;
    } else {
      eta /= 2, i = 0;
    }
  }
  return x;
}
// [particle]

int main() {
  // [particle_use]
  const double w = argmin(miss, calx::jacfwd(miss), 0.0);  // the outer derivative: forward mode
  // [particle_use]
  // (Six digits: the descent stops within its 1e-5 tolerances, where rounding may differ.)
  std::printf("w = %.6f, miss below 1e-6: %s\n", w, miss(w) < 1e-6 ? "yes" : "no");

  // Checks: the outer derivative against central differences of the loop, and the miss at
  // the control found.
  const double at = 0.3, h = 1e-6;
  const double fd = (miss(at + h) - miss(at - h)) / (2 * h);
  const double d = calx::jacfwd(miss)(at);
  // [particle_reverse]
  const double d_reverse = calx::grad(miss)(at);  // reverse mode through the while_loop
  // [particle_reverse]
  std::printf("d miss/dw at 0.3: %.6f forward, %.6f reverse (central differences %.6f)\n", d, d_reverse, fd);
  if (std::abs(d - fd) > 1e-5 * (1 + std::abs(fd)) || std::abs(d_reverse - d) > 1e-12 * (1 + std::abs(d)) ||
      !(miss(w) < 1e-6)) {
    std::puts("MISMATCH");
    return 1;
  }
  return 0;
}
