// Control flow: calx::scan over a tensor and over rows, a tensor carried through a loop,
// and calx::checkpoint. The output is checked by CTest (examples/control-flow-scan.out);
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

// [scan]
// The oscillator driven by a force given per step; each step outputs x^2.
constexpr auto driven = [](auto x0, auto damping, const auto& force) {
  const auto [end, squares] = calx::scan(
      [](auto s, auto f) {  // f(carry, x) -> std::pair{carry, y}
        const auto [x, v, c] = s;
        const auto x1 = x + 0.01 * v;
        return std::pair{std::array{x1, v - 0.01 * (x + c * v) + 0.01 * f, c}, x1 * x1};
      },
      std::array{x0, 0.0 * x0, damping}, force);  // force: a calx::tensor<double, 1000>
  return 0.01 * calx::sum(squares) + 0.0 * end[0];  // the integral of x^2 over t in [0, 10]
};
// [scan]

// [tensor_carry]
// Three competing populations, a tensor of 3 carried through 100 steps of logistic growth
// beside a traced scalar (the growth rate, loop-invariant).
constexpr auto populations = [](const auto& p0, auto rate) {
  const auto end = calx::fori_loop(
      0, 100,
      [](auto, auto c) {
        const auto [p, r] = c;
        return std::pair{p + 0.1 * r * p * (1.0 - calx::sum(p)), r};
      },
      std::pair{p0, rate});
  return calx::sum(end.first * end.first);
};
// [tensor_carry]

// [scan_rows]
// A recurrent cell over the rows of xs (5 steps of 2 inputs): the state is a tensor of 3,
// the weights ride in the carry unchanged, and ys stacks every state into a 5 x 3 tensor.
constexpr auto recurrent = [](const auto& h0, const auto& w, const auto& xs) {
  const auto [end, states] = calx::scan(
      [](auto c, const auto& x) {  // x: a calx::tensor<double, 2>, row s of xs
        const auto [h, w] = c;
        const auto next = calx::tanh(0.9 * h + calx::matvec(w, x));
        return std::pair{std::pair{next, w}, next};
      },
      std::pair{h0, w}, xs);
  return calx::sum(states * states);  // states: a calx::tensor<double, 5, 3>
};
// [scan_rows]

// [checkpoint]
// The same integral, checkpointed: reverse mode keeps its arguments only, and runs the
// scan again in the backward pass.
constexpr auto driven_checkpointed = [](auto x0, auto damping, const auto& force) {
  return calx::checkpoint(driven)(x0, damping, force);
};
// [checkpoint]

// [checkpoint_small]
constexpr auto layer = [](auto x, auto w) { return calx::tanh(w * calx::sin(x)); };
constexpr auto net = [](auto x, auto w) { return calx::checkpoint(layer)(x, w) * x; };
// [checkpoint_small]

int main() {
  // [scan_grad]
  calx::tensor<double, 1000> force;
  for (int i = 0; i < 1000; ++i) force[i] = std::sin(0.02 * i);
  const auto energy = calx::trace(driven, 1.0, 0.1, force);
  const auto [d_x0, d_force] = calx::grad(driven, calx::argnums<0, 2>)(1.0, 0.1, force);  // d_force: a tensor
  // [scan_grad]
  std::printf("scan: integral of x^2 = %.6f, d/dx0 = %.6f, d/dforce[0] = %.6f, d/dforce[500] = %.6f\n",
              energy(1.0, 0.1, force)[0], d_x0, d_force[0], d_force[500]);

  // [tensor_carry_grad]
  calx::tensor<double, 3> p0;
  p0[0] = 0.1, p0[1] = 0.2, p0[2] = 0.3;
  const auto d_p0 = calx::grad(populations)(p0, 0.8);                           // a tensor<double, 3>
  const double d_rate = calx::grad(populations, calx::argnums<1>)(p0, 0.8);
  // [tensor_carry_grad]
  std::printf("%s\n", calx::to_string(calx::trace(populations, p0, 0.8)).c_str());
  std::printf("tensor carry: f = %.6f, df/dp0 = (%.6f, %.6f, %.6f), df/drate = %.6f\n",
              static_cast<double>(populations(p0, 0.8)), d_p0[0], d_p0[1], d_p0[2], d_rate);

  // [scan_rows_grad]
  calx::tensor<double, 3> h0;
  calx::tensor<double, 3, 2> w;
  calx::tensor<double, 5, 2> xs_rows;
  for (std::size_t k = 0; k < 6; ++k) w[k] = 0.1 * static_cast<double>(k) - 0.2;
  for (std::size_t k = 0; k < 10; ++k) xs_rows[k] = std::sin(0.7 * static_cast<double>(k));
  const auto d_w = calx::grad(recurrent, calx::argnums<1>)(h0, w, xs_rows);  // a tensor<double, 3, 2>
  // [scan_rows_grad]
  std::printf("scan over rows: f = %.6f, df/dw = [[%.6f, %.6f], [%.6f, %.6f], [%.6f, %.6f]]\n",
              static_cast<double>(recurrent(h0, w, xs_rows)), d_w[0], d_w[1], d_w[2], d_w[3], d_w[4], d_w[5]);

  // [checkpoint_vjp]
  const auto [value, pullback] = calx::vjp(driven, 1.0, 0.1, force);
  const auto [same_value, checkpointed_pullback] = calx::vjp(driven_checkpointed, 1.0, 0.1, force);
  // What each pullback keeps for the backward pass, in numbers:
  constexpr std::size_t kept = decltype(pullback)::residuals;                   // the scan's carries
  constexpr std::size_t kept_checkpointed = decltype(checkpointed_pullback)::residuals;  // x0, damping, force
  // [checkpoint_vjp]
  const auto one = decltype(value){1.0};  // the integral is a rank-0 tensor (calx::sum's result)
  const auto ct = pullback(one);
  const auto ct_checkpointed = checkpointed_pullback(one);
  std::printf("checkpoint: the pullback keeps %zu numbers, checkpointed %zu; d/dforce[500] = %.6f and %.6f\n", kept,
              kept_checkpointed, std::get<2>(ct)[500], std::get<2>(ct_checkpointed)[500]);
  std::printf("%s\n", calx::to_string(calx::trace(calx::grad(net, calx::argnums<1>), 0.5, 2.0)).c_str());
}
