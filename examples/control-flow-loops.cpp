// Control flow: the loops fori_loop and while_loop, each one IR node whose body is a
// sub-program. The output is checked by CTest (examples/control-flow-loops.out);
// docs/control-flow.md quotes the snippets between markers.
#include <calx/calx.hpp>
#include <calx/cond.hpp>

#include <array>
#include <cmath>
#include <cstdio>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

// [fori_loop]
// A damped oscillator, 1000 explicit-Euler steps; the carry is (position, velocity, damping).
constexpr auto oscillator = [](auto x0, auto v0, auto damping) {
  const auto end = calx::fori_loop(
      0, 1000,
      [](auto, auto s) {  // body(i, carry) -> carry
        const auto [x, v, c] = s;
        return std::array{x + 0.01 * v, v - 0.01 * (x + c * v), c};
      },
      std::array{x0, v0, damping});
  return end[0];
};
// [fori_loop]

// [while_loop]
// Newton's iteration for sqrt(a), until the residual is small: the step count depends on a.
constexpr auto newton_sqrt = [](auto a) {
  const auto s = calx::while_loop(
      [](auto s) { return calx::abs(s[0] * s[0] - s[1]) > 1e-12 * s[1]; },  // cond_fn(carry)
      [](auto s) { return std::array{0.5 * (s[0] + s[1] / s[0]), s[1]}; },   // body_fn(carry)
      std::array{a + 1.0, a});                                             // init
  return s[0];
};
// [while_loop]

int main() {
  // [fori_trace]
  std::printf("%s\n", calx::to_string(calx::trace(oscillator, 1.0, 0.0, 0.1)).c_str());
  // [fori_trace]

  // [fori_grad]
  const auto [dx0, dv0, ddamping] = calx::grad(oscillator, calx::argnums<0, 1, 2>)(1.0, 0.0, 0.1);
  const auto [x, dx] = calx::jvp(oscillator, std::tuple{1.0, 0.0, 0.1}, std::tuple{0.0, 0.0, 1.0});
  const double curvature = calx::hessian(oscillator, calx::argnums<2>)(1.0, 0.0, 0.1);
  // [fori_grad]
  std::printf("fori_loop: x(t = 10) = %.6f, dx/dx0 = %.6f, dx/dv0 = %.6f, dx/dc = %.6f (jvp %.6f), d2x/dc2 = %.6f\n", x, dx0,
              dv0, ddamping, dx, curvature);

  // [fori_runtime]
  constexpr auto decay = [](auto x, auto n) {  // n: an integer argument, traced
    return calx::fori_loop(0, n, [](auto, auto v) { return 0.5 * v + 1.0; }, x);
  };
  const auto program = calx::trace(decay, 0.0, 0);
  const double decay_slope = calx::jacfwd(decay, calx::argnums<0>)(0.0, 3);  // forward mode
  const double decay_grad = calx::grad(decay, calx::argnums<0>)(0.0, 3);     // reverse mode
  // [fori_runtime]
  std::printf("runtime trip count: %.4f %.4f %.4f, d/dx after 3 steps %.4f (reverse mode %.4f)\n", program(0.0, 1),
              program(0.0, 3), program(0.0, 20), decay_slope, decay_grad);

  // [while_vmap]
  const std::vector<double> as{0.25, 2.0, 9.0, 1e6};
  auto roots = calx::vmap(newton_sqrt)(as);                    // each lane stops at its own step
  auto root_slopes = calx::vmap(calx::jacfwd(newton_sqrt))(as);  // d sqrt(a) / da = 1 / (2 sqrt(a))
  auto root_grads = calx::vmap(calx::grad(newton_sqrt))(as);     // reverse mode: each lane runs its steps back
  // [while_vmap]
  for (std::size_t i = 0; i < as.size(); ++i)
    std::printf("while_loop: sqrt(%g) = %.9f, d/da = %.9f (reverse mode %.9f)\n", as[i], roots[i], root_slopes[i],
                root_grads[i]);
}
