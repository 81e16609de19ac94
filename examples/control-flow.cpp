// Control flow: calx::cond as one IR node whose branches are sub-programs, calx::switch_
// as a chain of them, and the loops (fori_loop, while_loop, scan), each one node whose body
// is a sub-program. The output is checked by CTest (examples/control-flow.out);
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
