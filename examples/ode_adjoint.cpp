// Story 7 of ../shared/USER-STORIES.md, as a user writes it: x'' = -k x integrated by 1000
// steps of RK4 in one calx::fori_loop, and the gradient of the final energy with respect to
// the initial state and k over a batch of initial states (vmap of grad, k broadcast),
// checked against the chain rule written by hand. CTest compares the output with
// examples/ode_adjoint.out. (A TU of its own: the loop's derivatives cost the compiler
// about 5 s, which would take stories.cpp near the 20 s an example may take.)
#include <calx/calx.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdio>
#include <utility>
#include <vector>

namespace {

constexpr double h = 0.01;
constexpr auto rk4_step = [](auto, auto carry) {
  const auto s = carry.first;  // (x, v); not a structured binding, which clang 14 cannot capture
  const auto k = carry.second;
  auto f = [&](auto x, auto v) { return std::array{v, -k * x}; };
  auto k1 = f(s[0], s[1]);
  auto k2 = f(s[0] + 0.5 * h * k1[0], s[1] + 0.5 * h * k1[1]);
  auto k3 = f(s[0] + 0.5 * h * k2[0], s[1] + 0.5 * h * k2[1]);
  auto k4 = f(s[0] + h * k3[0], s[1] + h * k3[1]);
  auto s_next = std::array{s[0] + h / 6 * (k1[0] + 2 * k2[0] + 2 * k3[0] + k4[0]),
                           s[1] + h / 6 * (k1[1] + 2 * k2[1] + 2 * k3[1] + k4[1])};
  return std::pair{s_next, k};
};
constexpr auto energy = [](auto s, auto k) { return 0.5 * s[1] * s[1] + 0.5 * k * s[0] * s[0]; };
constexpr auto final_energy = [](auto state, auto k) {
  auto [end, k_] = calx::fori_loop(0, 1000, rk4_step, std::pair{state, k});
  return energy(end, k_);
};

}  // namespace

int main() {
  const std::size_t n = 64;
  const double k = 2.5;
  std::vector<std::array<double, 2>> states(n);
  for (std::size_t i = 0; i < n; ++i) {
    const double t = 0.1 * static_cast<double>(i);
    states[i] = {std::cos(t), 0.5 * std::sin(t)};
  }
  const auto [dE_ds, dE_dk] =
      calx::vmap(calx::grad(final_energy, calx::argnums<0, 1>), calx::in_axes<0, calx::none>)(states, k);
  // By hand: an RK4 step of this linear ODE is s -> A s, A = [[a, b], [-k b, a]] with
  // a = 1 - h^2 k / 2 + h^4 k^2 / 24, b = h - h^3 k / 6; carry M = ds/ds0 and t = ds/dk
  // through the steps (M -> A M, t -> A t + (dA/dk) s), then dE/ds0 = M^T grad E and
  // dE/dk = x^2 / 2 + grad E . t, grad E = (k x, v).
  const double a = 1 - h * h * k / 2 + h * h * h * h * k * k / 24, b = h - h * h * h * k / 6;
  const double da = -h * h / 2 + h * h * h * h * k / 12, db = -h * h * h / 6;
  double worst = 0;
  for (std::size_t i = 0; i < n; ++i) {
    double x = states[i][0], v = states[i][1];
    double m[2][2] = {{1, 0}, {0, 1}}, tx = 0, tv = 0;
    for (int step = 0; step < 1000; ++step) {
      const double nx = a * x + b * v, nv = -k * b * x + a * v;
      const double ntx = a * tx + b * tv + da * x + db * v;
      const double ntv = -k * b * tx + a * tv + (-b - k * db) * x + da * v;
      for (int c = 0; c < 2; ++c) {
        const double m0 = a * m[0][c] + b * m[1][c], m1 = -k * b * m[0][c] + a * m[1][c];
        m[0][c] = m0;
        m[1][c] = m1;
      }
      x = nx, v = nv, tx = ntx, tv = ntv;
    }
    const double gx = k * x, gv = v;
    const double want[3] = {m[0][0] * gx + m[1][0] * gv, m[0][1] * gx + m[1][1] * gv, 0.5 * x * x + gx * tx + gv * tv};
    const double got[3] = {dE_ds[i][0], dE_ds[i][1], dE_dk[i]};
    // Relative to max(1, |want|): dE/dv0 is 0 for a state at rest, where only roundoff is left.
    for (int c = 0; c < 3; ++c) worst = std::max(worst, std::abs(got[c] - want[c]) / std::max(1.0, std::abs(want[c])));
  }
  for (std::size_t i : {std::size_t{0}, std::size_t{31}, std::size_t{63}})
    std::printf("state %2zu: (%.4f, %.4f)  dE/dx0 %.6f  dE/dv0 %.6f  dE/dk %.6f\n", i, states[i][0], states[i][1],
                dE_ds[i][0], dE_ds[i][1], dE_dk[i]);
  // The two codes round differently over 1000 steps (RK4's stages against the matrix A):
  // 1e-9 leaves room for that, and none for a wrong rule.
  std::printf("against the chain rule by hand, %zu states: %s\n", n, worst < 1e-9 ? "ok" : "WRONG");
  using step_program = decltype(calx::trace(final_energy, std::array{1.0, 0.0}, 1.0));
  std::printf("the 1000-step loop is one node of a %zu-node program\n", step_program::ir.size);
  return worst < 1e-9 ? 0 : 1;
}
