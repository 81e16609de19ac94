/// @file tests/_include/loop_large_cases.hpp
/// @brief Loops whose carries are large tensors (more than `unrolled_max`, 64, elements):
/// their step reads such a carry in place, as SIMD batches of the loop's locals
/// (`carry_read`, detail/exec/loop_kernels.hpp), and a reverse loop stores whole carries
/// (`carry_store`, one entry per carry). An RK4 step on 300 numbers (slices and
/// `concatenate`, GradBench's ode) beside a small carry and a parameter passed through:
/// `fori_loop` with a constant and with a runtime trip count, on numbers, under `grad` (the
/// reverse loop, its stored carries and the carries' cotangents read in place) and `jvp`,
/// against the same steps unrolled while tracing and against a plain C++ loop. (`scan` runs
/// the same kernels, its carries kept by the forward loop: a TU of its own would be needed
/// for the compile budget, 2.6 GB with both here.)
///
/// Split for the compile budget (each loop compiles its derivative loops with it): part 0 a
/// constant trip count, part 1 a runtime one, part 2 forward mode
/// (tests/loop_tensors.large.<k>.cpp).
///
/// Tolerance: the loop and the unrolled program are the same ops in the same order; they
/// may differ by fma contraction and by the order in which cotangents are added, so 64
/// epsilons relative to |want| + 1.
#ifndef CALX_TESTS_LOOP_LARGE_CASES_HPP
#define CALX_TESTS_LOOP_LARGE_CASES_HPP

#include <calx/calx.hpp>

#include <catch2/catch.hpp>

#include <array>
#include <cmath>
#include <cstddef>
#include <limits>
#include <tuple>
#include <vector>

namespace {

constexpr std::size_t n = 300;
constexpr int steps = 3;

constexpr auto f = [](const auto& x, const auto& y) {
  return calx::concatenate(calx::slice<0, 1>(x), calx::slice<1, n>(x) * calx::slice<0, n - 1>(y));
};
/// One RK4 step of y' = f(x, y), and a small carry a that the step reads and changes.
constexpr auto rk4 = [](const auto& x, const auto& y, auto h, auto a) {
  const auto k1 = f(x, y);
  const auto k2 = f(x, y + h / 2 * k1);
  const auto k3 = f(x, y + h / 2 * k2);
  const auto k4 = f(x, y + h * k3);
  return std::pair{y + h / 6 * (k1 + 2.0 * k2 + 2.0 * k3 + k4) + 0.01 * a, a * 0.9 + 0.01 * a * a};
};
constexpr auto body = [](auto, const auto& c) {
  const auto& [x, y, h, a] = c;
  const auto [y1, a1] = rk4(x, y, h, a);
  return std::tuple{x, y1, h, a1};
};
/// What the tests differentiate: a weighted sum of the final y and the small carry.
constexpr auto readout = [](const auto& y, auto a) {
  return calx::sum(y * calx::sin(y)) + a * a;
};

constexpr auto looped = [](const auto& x, auto h, auto a) {
  const auto c = calx::fori_loop(0, steps, body, std::tuple{x, 0.5 * x, h, a});
  return readout(std::get<1>(c), std::get<3>(c));
};
constexpr auto looped_runtime = [](const auto& x, auto h, auto a, auto count) {
  const auto c = calx::fori_loop(0, count, body, std::tuple{x, 0.5 * x, h, a});
  return readout(std::get<1>(c), std::get<3>(c));
};
constexpr auto unrolled = [](const auto& x, auto h, auto a) {
  auto c = std::tuple{x, 0.5 * x, h, a};
  for (int i = 0; i < steps; ++i) c = body(i, c);
  return readout(std::get<1>(c), std::get<3>(c));
};

struct inputs {
  calx::tensor<double, n> x;
  double h = 0.3, a = 0.7;
  inputs() {
    for (std::size_t i = 0; i < n; ++i) x[i] = 0.2 + 0.6 * std::sin(0.37 * static_cast<double>(i));
  }
};

/// The same function on plain numbers, as a hand-written loop.
[[maybe_unused]] double by_hand(const inputs& in) {
  std::vector<double> x(in.x.data(), in.x.data() + n), y(n), k(n), acc(n), tmp(n);
  for (std::size_t i = 0; i < n; ++i) y[i] = 0.5 * x[i];
  double a = in.a, h = in.h;
  auto fn = [&](const std::vector<double>& yy, std::vector<double>& out) {
    out[0] = x[0];
    for (std::size_t i = 1; i < n; ++i) out[i] = x[i] * yy[i - 1];
  };
  for (int s = 0; s < steps; ++s) {
    std::vector<double> k1(n), k2(n), k3(n), k4(n);
    fn(y, k1);
    for (std::size_t i = 0; i < n; ++i) tmp[i] = y[i] + h / 2 * k1[i];
    fn(tmp, k2);
    for (std::size_t i = 0; i < n; ++i) tmp[i] = y[i] + h / 2 * k2[i];
    fn(tmp, k3);
    for (std::size_t i = 0; i < n; ++i) tmp[i] = y[i] + h * k3[i];
    fn(tmp, k4);
    for (std::size_t i = 0; i < n; ++i) y[i] = y[i] + h / 6 * (k1[i] + 2.0 * k2[i] + 2.0 * k3[i] + k4[i]) + 0.01 * a;
    a = a * 0.9 + 0.01 * a * a;
  }
  double r = a * a;
  for (double v : y) r += v * std::sin(v);
  return r;
}

void require_close(double got, double want) {
  INFO("got " << got << ", want " << want);
  REQUIRE(std::abs(got - want) <= 64 * std::numeric_limits<double>::epsilon() * (std::abs(want) + 1));
}

/// `g` (d/dx, d/dh, d/da) against the gradient of the same steps unrolled; and that the
/// reference is dense, not the zero a wrong read of the carries could give.
template <class G>
void check_gradient(const G& g, const inputs& in) {
  const auto [wx, wh, wa] = calx::grad(unrolled, calx::argnums<0, 1, 2>)(in.x, in.h, in.a);
  const auto& [gx, gh, ga] = g;
  double norm = 0;
  for (std::size_t i = 0; i < n; ++i) {
    require_close(gx[i], wx[i]);
    norm += std::abs(wx[i]);
  }
  require_close(gh, wh);
  require_close(ga, wa);
  REQUIRE(norm > 1.0);
}

}  // namespace

#if CALX_TEST_PART == 0
TEST_CASE("loops over large tensor carries: values", "[loop][tensor]") {
  const inputs in;
  const double want = by_hand(in);
  require_close(calx::trace(looped, in.x, in.h, in.a)(in.x, in.h, in.a), want);
  require_close(calx::trace(unrolled, in.x, in.h, in.a)(in.x, in.h, in.a), want);
}

TEST_CASE("loops over large tensor carries: reverse mode", "[loop][tensor][grad]") {
  const inputs in;
  check_gradient(calx::grad(looped, calx::argnums<0, 1, 2>)(in.x, in.h, in.a), in);
}

#endif

#if CALX_TEST_PART == 2
TEST_CASE("loops over large tensor carries: forward mode", "[loop][tensor][jvp]") {
  const inputs in;
  calx::tensor<double, n> tx;
  for (std::size_t i = 0; i < n; ++i) tx[i] = std::cos(0.11 * static_cast<double>(i));
  const auto [v0, t0] = calx::jvp(unrolled, std::tuple{in.x, in.h, in.a}, std::tuple{tx, 0.5, -0.25});
  const auto [v1, t1] = calx::jvp(looped, std::tuple{in.x, in.h, in.a}, std::tuple{tx, 0.5, -0.25});
  require_close(v1, v0);
  require_close(t1, t0);
  REQUIRE(std::abs(t0) > 1e-3);
}
#endif

#if CALX_TEST_PART == 1
TEST_CASE("loops over large tensor carries, a runtime trip count: values", "[loop][tensor]") {
  const inputs in;
  require_close(calx::trace(looped_runtime, in.x, in.h, in.a, steps)(in.x, in.h, in.a, steps), by_hand(in));
}

TEST_CASE("loops over large tensor carries, a runtime trip count: reverse mode", "[loop][tensor][grad]") {
  const inputs in;
  check_gradient(calx::grad(looped_runtime, calx::argnums<0, 1, 2>)(in.x, in.h, in.a, steps), in);
}
#endif

#endif
