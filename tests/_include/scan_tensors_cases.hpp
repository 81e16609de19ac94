/// @file tests/_include/scan_tensors_cases.hpp
/// @brief The cases of tests/scan_tensors.*.cpp, split into translation units for the
/// compile budget (each TU defines CALX_TEST_PART and CALX_TEST_REALS and includes this):
/// calx::scan with tensors (issue 10): a tensor carry, xs a 2-D tensor whose rows
/// (tensors of the trailing axis) are the per-step inputs, and per-step outputs that are a
/// rank-0 tensor and a tensor, stacked along a new leading axis. f32 and f64, under grad,
/// jvp, jacfwd, hessian (f64), vmap of grad, against the same steps unrolled while tracing
/// (rows taken with calx::take) and against finite differences (`check_grads`, order 2).
///
/// Tolerances (tests/_include/loop_checks.hpp): 32 epsilons relative to |want| + 1 for the
/// same ops in another order of additions, 64 for second derivatives, 128 for the SIMD
/// loop; finite differences relative 1e-6 (f64).
#ifndef CALX_TESTS_SCAN_TENSORS_CASES_HPP
#define CALX_TESTS_SCAN_TENSORS_CASES_HPP

#include <_include/loop_checks.hpp>

#include <calx/calx.hpp>

#include <catch2/catch.hpp>

#include <cmath>
#include <cstddef>
#include <limits>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

namespace {

using namespace calx_test;

/// An RNN-like scan: a state of 3, a row of 2 per step (xs is 4 x 2), outputs the state's
/// squared norm (stacked into a 1-D tensor) and the state itself (stacked into 4 x 3).
constexpr auto cell = [](auto h, const auto& x) {
  const auto next = calx::tanh(h * 0.8 + x(0) * 0.3 - x(1) * 0.2);
  return std::pair{next, std::pair{calx::sum(next * next), next}};
};
constexpr auto rnn = [](auto w, const auto& h0, const auto& xs) {
  const auto [h, ys] = calx::scan(cell, h0 * w, xs);
  const auto [norms, states] = ys;
  return calx::sum(norms) + 0.5 * calx::sum(states * states) + calx::sum(h);
};
constexpr auto rnn_unrolled = [](auto w, const auto& h0, const auto& xs) {
  auto h = h0 * w;
  auto step = [&h](const auto& row) {
    const auto [next, y] = cell(h, row);
    h = next;
    return y.first + 0.5 * calx::sum(y.second * y.second);
  };
  const auto t0 = step(calx::take<0>(xs));
  const auto t1 = step(calx::take<1>(xs));
  const auto t2 = step(calx::take<2>(xs));
  const auto t3 = step(calx::take<3>(xs));
  return t0 + t1 + t2 + t3 + calx::sum(h);
};

#if CALX_TEST_PART == 0
TEMPLATE_TEST_CASE("scan tensors: scan over rows of a 2-D xs, stacking tensors", "[scan][tensor]", CALX_TEST_REALS) {
  using T = TestType;
  const auto h0 = vec<T>();
  const auto xs = inputs<T>();
  const std::string text = calx::to_string(calx::trace(rnn, T(1), h0, xs));
  INFO(text);
  CHECK(text.find("= scan[") != std::string::npos);
  for (const T w : {T(0.6), T(-1.3)}) {
    check_close("value", num(rnn(w, h0, xs)), num(rnn_unrolled(w, h0, xs)), 32);
    const auto [gw, gh, gx] = calx::grad(rnn, calx::argnums<0, 1, 2>)(w, h0, xs);
    const auto [uw, uh, ux] = calx::grad(rnn_unrolled, calx::argnums<0, 1, 2>)(w, h0, xs);
    check_close("grad w", num(gw), num(uw), 32);
    check_close("grad h0", gh, uh, 32);
    check_close("grad xs", gx, ux, 32);
    if constexpr (second_order<T>) {
      check_close("hessian w", num(calx::hessian(rnn)(w, h0, xs)), num(calx::hessian(rnn_unrolled)(w, h0, xs)), 64);
      check_close("hessian h0", calx::hessian(rnn, calx::argnums<1>)(w, h0, xs),
                  calx::hessian(rnn_unrolled, calx::argnums<1>)(w, h0, xs), 64);
    }
    check_close("jacfwd xs", calx::jacfwd(rnn, calx::argnums<2>)(w, h0, xs),
                calx::jacrev(rnn_unrolled, calx::argnums<2>)(w, h0, xs), 32);
    const auto [y, dy] = calx::jvp(rnn, std::tuple{w, h0, xs}, std::tuple{T(1), h0, xs});
    const auto [yu, dyu] = calx::jvp(rnn_unrolled, std::tuple{w, h0, xs}, std::tuple{T(1), h0, xs});
    check_close("jvp tangent", num(dy), num(dyu), 32);
    (void)y;
    (void)yu;
  }
  // The stacked outputs, on numbers and traced.
  const auto [h, ys] = calx::scan(cell, h0, xs);
  const auto [norms, states] = ys;
  static_assert(std::is_same_v<std::remove_cvref_t<decltype(states)>, calx::tensor<T, 4, 3>>);
  static_assert(std::is_same_v<std::remove_cvref_t<decltype(norms)>, calx::tensor<T, 4>>);
  for (std::size_t e = 0; e < 3; ++e) CHECK(states[9 + e] == h[e]);
  check_close("stacked norm", norms[3], T(h[0] * h[0] + h[1] * h[1] + h[2] * h[2]), 4);
}
#endif


#if CALX_TEST_PART == 1
TEMPLATE_TEST_CASE("scan tensors: vmap of grad", "[scan][vmap][tensor]", CALX_TEST_REALS) {
  using T = TestType;
  const auto h0 = vec<T>();
  const auto xs = inputs<T>();
  std::vector<T> ws;
  for (int i = 0; i < 37; ++i) ws.push_back(T(-1.5) + T(0.08) * T(i));
  const auto grads = calx::vmap(calx::grad(rnn), calx::in_axes<0, calx::none, calx::none>)(ws, h0, xs);
  for (std::size_t i = 0; i < ws.size(); ++i)
    check_close("vmap grad", num(grads[i]), num(calx::grad(rnn)(ws[i], h0, xs)), 128);
}
#endif

/// JAX's check_grads, orders 1 and 2, through the scan.
#if CALX_TEST_PART == 2
TEST_CASE("scan tensors: check_grads, orders 1 and 2", "[scan][tensor]") {
  check_grads_1_2("scan", [](auto x) { return rnn(x, calx::tensor<double, 3>{} + 0.3 * x, calx::tensor<double, 4, 2>{} + x); });
}
#endif

}  // namespace

#endif  // CALX_TESTS_SCAN_TENSORS_CASES_HPP
