/// @file tests/loop.order.scan_while.cpp
/// @brief Third derivatives through the other loops (docs/control-flow.md, "How far
/// derivatives go"): `grad` of `grad` of `grad` of a `scan` (reverse mode, its forward loop
/// keeping the carries) and `jacfwd` three times of a `while_loop` (forward mode: the only
/// one it has), each against the loop written out by hand, the same operations, so a few
/// ulp apart; and `jacrev` of `hessian` of a `fori_loop` (reverse over forward over
/// reverse). fori_loop and cond in the other modes: tests/loop.order.cpp.

#include <calx/calx.hpp>

#include <catch2/catch.hpp>

#include <cmath>
#include <cstddef>
#include <utility>

namespace {

/// |got - want| <= rel * (1 + |want|).
bool near(double got, double want, double rel) { return std::abs(got - want) <= rel * (1 + std::abs(want)); }

}  // namespace

TEST_CASE("loop order: third derivatives of scan (reverse) and while_loop (forward)", "[scan][while_loop][order]") {
  // scan: a sum of the carries, the carry moved by the step each time.
  constexpr auto scanned = [](auto x, const auto& ws) {
    const auto [end, ys] = calx::scan([](auto c, auto w) { return std::pair{calx::sin(c) * w + c * 0.3, c * c}; }, x, ws);
    return end + calx::sum(ys);
  };
  constexpr auto scanned_by_hand = [](auto x) {  // the same weights, as constants
    auto c = x;
    auto total = x * 0.0;
    for (double w : {0.5, 1.0, 1.5, 2.0}) {
      total = total + c * c;
      c = calx::sin(c) * w + c * 0.3;
    }
    return c + total;
  };
  calx::tensor<double, 4> ws;
  for (std::size_t s = 0; s < 4; ++s) ws[s] = 0.5 * static_cast<double>(s + 1);
  // while_loop: shrinks the carry until it is at most 1 (four steps from 5).
  constexpr auto halved = [](auto x) {
    return calx::while_loop([](auto v) { return v > 1.0; }, [](auto v) { return 0.5 * v + 0.01 * v * v * v; }, x);
  };
  constexpr auto halved_by_hand = [](auto x) {
    auto v = x;
    for (int i = 0; i < 4; ++i) v = 0.5 * v + 0.01 * v * v * v;
    return v;
  };
  const double x = 0.8, v = 5.0;
  using calx::grad;
  using calx::jacfwd;
  CHECK(near(grad(grad(grad(scanned)))(x, ws), grad(grad(grad(scanned_by_hand)))(x), 1e-12));
  CHECK(near(jacfwd(jacfwd(jacfwd(halved)))(v), jacfwd(jacfwd(jacfwd(halved_by_hand)))(v), 1e-12));
  CHECK(halved(v) <= 1.0);
  CHECK(halved(v) == halved_by_hand(v));
}

TEST_CASE("loop order: jacrev(hessian) of fori_loop", "[fori_loop][jacrev][order]") {
  constexpr auto looped = [](auto x) {
    return calx::fori_loop(0, 3, [](auto, auto c) { return calx::sin(c) * 1.1 + c * c * 0.1; }, x);
  };
  constexpr auto by_hand = [](auto x) {
    for (int i = 0; i < 3; ++i) x = calx::sin(x) * 1.1 + x * x * 0.1;
    return x;
  };
  for (const double x : {0.7, -1.3}) {
    INFO("x = " << x);
    CHECK(near(calx::jacrev(calx::hessian(looped))(x), calx::jacrev(calx::hessian(by_hand))(x), 1e-12));
  }
}
