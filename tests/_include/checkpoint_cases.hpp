/// @file tests/_include/checkpoint_cases.hpp
/// @brief The cases of tests/checkpoint.*.cpp, split into translation units for the
/// compile budget (each TU defines CALX_TEST_PART and CALX_TEST_REALS and includes this):
/// calx::checkpoint (issue 10) under every transform, f32 and f64, against the same
/// function not checkpointed: the values are the same ops in the same order (one forward
/// pass recomputed), so they agree to a few ulps (fma contraction, and cotangents added in
/// another order: 16 epsilons relative to |want| + 1; 64 for SIMD lanes, whose libm differs
/// from the scalar one by a few ulp). What a pullback stores (`residuals`) is checked
/// exactly: a checkpoint keeps its arguments and results, not its intermediates.
#ifndef CALX_TESTS_CHECKPOINT_CASES_HPP
#define CALX_TESTS_CHECKPOINT_CASES_HPP

#include <_include/float_compare.hpp>

#include <calx/calx.hpp>

#include <catch2/catch.hpp>

#include <array>
#include <cmath>
#include <limits>
#include <string>
#include <tuple>
#include <vector>

namespace {

using calx_test::text;

/// Several intermediates (what reverse mode would store), two results.
constexpr auto inner = [](auto x, auto y) {
  const auto a = calx::sin(x * y);
  const auto b = calx::exp(a - y);
  const auto c = calx::tanh(b * x + a);
  return std::array{c * a + x, b * y - c};
};
constexpr auto plain = [](auto x, auto y) {
  const auto r = inner(x, y);
  return r[0] * r[1] + r[0];
};
constexpr auto remat = [](auto x, auto y) {
  const auto r = calx::checkpoint(inner)(x, y);
  return r[0] * r[1] + r[0];
};
constexpr auto saved = [](auto x, auto y) {
  const auto r = calx::checkpoint(inner, calx::policy::everything_saveable)(x, y);
  return r[0] * r[1] + r[0];
};

/// Second derivatives, whose derivative is a third.
constexpr auto third = [](auto a, auto b) { return calx::grad(calx::grad(remat))(a, b); };
constexpr auto third_plain = [](auto a, auto b) { return calx::grad(calx::grad(plain))(a, b); };

/// A scan whose step is checkpointed, and the same scan plain.
constexpr auto step = [](auto c, auto x) {
  const auto r = calx::checkpoint(inner)(c, x);
  return std::pair{r[0] * 0.5, r[1]};
};
constexpr auto plain_step = [](auto c, auto x) {
  const auto r = inner(c, x);
  return std::pair{r[0] * 0.5, r[1]};
};
constexpr auto scanned = [](auto c, const auto& s) {
  const auto [last, outs] = calx::scan(step, c, s);
  return last + calx::sum(outs);
};
constexpr auto plain_scanned = [](auto c, const auto& s) {
  const auto [last, outs] = calx::scan(plain_step, c, s);
  return last + calx::sum(outs);
};

template <class T>
const std::vector<std::array<T, 2>> points = {{T(0.3), T(-0.4)}, {T(-0.7), T(0.9)}, {T(1.1), T(0.2)}};

template <class T>
void check_close(const std::string& what, T got, T want, int k) {
  INFO(what << ": got " << text(got) << ", want " << text(want));
  CHECK(std::isfinite(got));
  CHECK(std::abs(got - want) <= T(k) * std::numeric_limits<T>::epsilon() * (T(1) + std::abs(want)));
}

#if CALX_TEST_PART == 0
TEMPLATE_TEST_CASE("checkpoint: one node, f nested; everything_saveable is f itself", "[checkpoint]", CALX_TEST_REALS) {
  using T = TestType;
  const std::string remat_text = calx::to_string(calx::trace(remat, T(1), T(1)));
  INFO(remat_text);
  CHECK(remat_text.find("= checkpoint[") != std::string::npos);
  CHECK(remat_text.find("body={ lambda") != std::string::npos);
  CHECK(remat_text.find("tanh") != std::string::npos);
  CHECK(calx::to_string(calx::trace(saved, T(1), T(1))) == calx::to_string(calx::trace(plain, T(1), T(1))));
  // the reverse pass recomputes f: the backward node holds f and its vjp
  const std::string grad_text = calx::to_string(calx::trace(calx::grad(remat), T(1), T(1)));
  INFO(grad_text);
  CHECK(grad_text.find("= checkpoint_vjp[") != std::string::npos);
  // plain numbers: f itself
  check_close("numbers", calx::checkpoint(inner)(T(0.3), T(0.2))[1], inner(T(0.3), T(0.2))[1], 0);
}
#endif

#if CALX_TEST_PART == 0
TEMPLATE_TEST_CASE("checkpoint: values and every derivative equal f's", "[checkpoint]", CALX_TEST_REALS) {
  using T = TestType;
  for (const auto& p : points<T>) {
    const T x = p[0], y = p[1];
    INFO("at " << text(x) << ", " << text(y));
    check_close("value", calx::trace(remat, x, y)(x, y), calx::trace(plain, x, y)(x, y), 16);
    const auto g = calx::grad(remat, calx::argnums<0, 1>)(x, y);
    const auto gp = calx::grad(plain, calx::argnums<0, 1>)(x, y);
    check_close("grad x", std::get<0>(g), std::get<0>(gp), 16);
    check_close("grad y", std::get<1>(g), std::get<1>(gp), 16);
    const auto gs = calx::grad(saved, calx::argnums<0, 1>)(x, y);
    check_close("grad y, everything_saveable", std::get<1>(gs), std::get<1>(gp), 16);
    const auto jv = calx::jvp(remat, std::tuple{x, y}, std::tuple{T(0.5), T(-1)});
    const auto jvp = calx::jvp(plain, std::tuple{x, y}, std::tuple{T(0.5), T(-1)});
    check_close("jvp", jv.second, jvp.second, 16);
    const auto [value, pullback] = calx::vjp(remat, x, y);
    const auto ct = pullback(T(2));
    check_close("vjp value", value, calx::trace(plain, x, y)(x, y), 16);
    check_close("vjp y", std::get<1>(ct), T(2) * std::get<1>(gp), 16);
    const auto [lvalue, lin] = calx::linearize(remat, x, y);
    check_close("linearize", lin(T(0.5), T(-1)), jvp.second, 16);
    check_close("jacfwd y", std::get<1>(calx::jacfwd(remat, calx::argnums<0, 1>)(x, y)), std::get<1>(gp), 16);
    check_close("jacrev x", std::get<0>(calx::jacrev(remat, calx::argnums<0, 1>)(x, y)), std::get<0>(gp), 16);
    const auto h = calx::hessian(remat, calx::argnums<0, 1>)(x, y);
    const auto hp = calx::hessian(plain, calx::argnums<0, 1>)(x, y);
    check_close("hessian xx", std::get<0>(std::get<0>(h)), std::get<0>(std::get<0>(hp)), 16);
    check_close("hessian xy", std::get<1>(std::get<0>(h)), std::get<1>(std::get<0>(hp)), 16);
    check_close("hessian yy", std::get<1>(std::get<1>(h)), std::get<1>(std::get<1>(hp)), 16);
    constexpr auto dx = [](auto a, auto b) { return calx::grad(remat)(a, b); };
    constexpr auto dxp = [](auto a, auto b) { return calx::grad(plain)(a, b); };
    check_close("grad of grad", calx::grad(dx)(x, y), calx::grad(dxp)(x, y), 16);
    // third order: the second derivatives' own derivatives are ordinary nodes
    check_close("third derivative", calx::grad(third)(x, y), calx::grad(third_plain)(x, y), 64);
  }
}
#endif

#if CALX_TEST_PART == 1
TEMPLATE_TEST_CASE("checkpoint: a pullback stores the arguments and results, not the intermediates", "[checkpoint]", CALX_TEST_REALS) {
  using T = TestType;
  using remat_pullback = decltype(calx::vjp(remat, T(1), T(1)).second);
  using plain_pullback = decltype(calx::vjp(plain, T(1), T(1)).second);
  using saved_pullback = decltype(calx::vjp(saved, T(1), T(1)).second);
  // x, y and the two results (the product's derivative reads them); not f's intermediates
  CHECK(remat_pullback::residuals == 4);
  CHECK(plain_pullback::residuals > remat_pullback::residuals);
  CHECK(saved_pullback::residuals == plain_pullback::residuals);
  using remat_map = decltype(calx::linearize(remat, T(1), T(1)).second);
  using plain_map = decltype(calx::linearize(plain, T(1), T(1)).second);
  CHECK(remat_map::residuals < plain_map::residuals);
}
#endif

#if CALX_TEST_PART == 1
TEMPLATE_TEST_CASE("checkpoint: under vmap, in a scan's body, nested", "[checkpoint][vmap]", CALX_TEST_REALS) {
  using T = TestType;
  std::vector<T> xs, ys;
  for (int i = 0; i < 19; ++i) {  // two groups of eight and a partial one
    xs.push_back(T(-1) + T(0.1) * T(i));
    ys.push_back(T(0.5) - T(0.04) * T(i));
  }
  const auto values = calx::vmap(remat)(xs, ys);
  const auto grads = calx::vmap(calx::grad(remat))(xs, ys);
  const auto tangents = calx::vmap([](auto x, auto y) { return calx::jvp(remat, std::tuple{x, y}, std::tuple{x * 0 + 1, y * 0}).second;
  })(xs, ys);
  for (std::size_t i = 0; i < xs.size(); ++i) {
    INFO("sample " << i);
    check_close("value", values[i], calx::trace(plain, xs[i], ys[i])(xs[i], ys[i]), 64);
    check_close("grad", grads[i], calx::grad(plain)(xs[i], ys[i]), 64);
    check_close("jvp", tangents[i], calx::grad(plain)(xs[i], ys[i]), 64);
  }
  // a checkpointed step in a scan, and a checkpoint of a checkpoint
  calx::tensor<T, 6> s;
  for (int i = 0; i < 6; ++i) s[i] = T(0.1) * T(i) - T(0.2);
  check_close("scan of a checkpoint, grad", T(calx::grad(scanned)(T(0.3), s)), T(calx::grad(plain_scanned)(T(0.3), s)),
              16);
  // the scan's loop runs the checkpoint's kernel on SIMD batches
  const auto scan_grads = calx::vmap(calx::grad(scanned), calx::in_axes<0, calx::none>)(xs, s);
  for (std::size_t i = 0; i < xs.size(); ++i)
    check_close("vmap of a scan of a checkpoint, grad", T(scan_grads[i]), T(calx::grad(plain_scanned)(xs[i], s)), 64);
  constexpr auto twice = [](auto x, auto y) {
    const auto r = calx::checkpoint([](auto a, auto b) { return calx::checkpoint(inner)(a, b); })(x, y);
    return r[0] * r[1] + r[0];
  };
  check_close("checkpoint of a checkpoint, grad", calx::grad(twice)(T(0.3), T(0.2)), calx::grad(plain)(T(0.3), T(0.2)),
              16);
}
#endif

/// Tensors in and out: the checkpoint's node reads and writes whole tensors.
constexpr auto tensor_body = [](const auto& v, auto w) { return calx::sin(v * w) * v; };
constexpr auto tensor_remat = [](const auto& v, auto w) { return calx::sum(calx::checkpoint(tensor_body)(v, w) * v); };
constexpr auto tensor_plain = [](const auto& v, auto w) { return calx::sum(tensor_body(v, w) * v); };

// One precision for the tensor and long-scan cases (the checkpoint's code is the same
// template for both; the cases above run f32 too): each precision costs seconds to compile.
#if CALX_TEST_PART == 2
TEST_CASE("checkpoint: tensor arguments and results", "[checkpoint][tensor]") {
  using T = double;
  calx::tensor<T, 5> v;
  for (int i = 0; i < 5; ++i) v[i] = T(0.3) * T(i) - T(0.5);
  const T w = T(0.7);
  const std::string text = calx::to_string(calx::trace(tensor_remat, v, w));
  INFO(text);
  CHECK(text.find(":tuple = checkpoint[") != std::string::npos);
  CHECK(text.find("[5] = get[0]") != std::string::npos);
  check_close("value", T(calx::trace(tensor_remat, v, w)(v, w)), T(calx::trace(tensor_plain, v, w)(v, w)), 16);
  const auto g = calx::grad(tensor_remat, calx::argnums<0, 1>)(v, w);
  const auto gp = calx::grad(tensor_plain, calx::argnums<0, 1>)(v, w);
  for (int i = 0; i < 5; ++i) check_close("grad v", T(std::get<0>(g)[i]), T(std::get<0>(gp)[i]), 16);
  check_close("grad w", T(std::get<1>(g)), T(std::get<1>(gp)), 16);
  const auto h = calx::hessian(tensor_remat, calx::argnums<1>)(v, w);
  check_close("hessian w", T(h), T(calx::hessian(tensor_plain, calx::argnums<1>)(v, w)), 16);
  // a tensor-only function (no traced scalar beside it)
  constexpr auto only = [](const auto& u) { return calx::sum(calx::checkpoint([](const auto& a) { return calx::exp(a) * a; })(u)); };
  constexpr auto only_plain = [](const auto& u) { return calx::sum(calx::exp(u) * u); };
  const auto go = calx::grad(only)(v);
  const auto gop = calx::grad(only_plain)(v);
  for (int i = 0; i < 5; ++i) check_close("grad of a tensor-only function", T(go[i]), T(gop[i]), 16);
}
#endif

/// A long scan: its pullback stores the carry of every step; under checkpoint, the
/// arguments only, and the pullback runs the scan again.
constexpr auto decay = [](auto c, auto x) {
  const auto next = c * 0.999 + calx::sin(x * c) * 0.01;
  return std::pair{next, next * next};
};
constexpr auto simulate = [](auto c0, const auto& xs) {
  const auto [c, ys] = calx::scan(decay, c0, xs);
  return c * calx::sum(ys);
};
constexpr auto simulate_remat = [](auto c0, const auto& xs) { return calx::checkpoint(simulate)(c0, xs); };

#if CALX_TEST_PART == 2
TEST_CASE("checkpoint: the memory a pullback of a long scan keeps", "[checkpoint][scan]") {
  using T = double;
  constexpr int steps = 10000;
  calx::tensor<T, steps> xs;
  for (int i = 0; i < steps; ++i) xs[i] = T(0.5) + T(0.5) * std::sin(T(0.01) * T(i));
  const auto [value, pullback] = calx::vjp(simulate, T(0.5), xs);
  const auto [remat_value, remat_pullback] = calx::vjp(simulate_remat, T(0.5), xs);
  using stored = decltype(pullback);
  using remat_stored = decltype(remat_pullback);
  // xs, the scan's results (carries of every step, outputs) and its last carry; under
  // checkpoint, the arguments: xs and c0
  CHECK(stored::residuals >= 3 * steps);
  CHECK(remat_stored::residuals == steps + 1);
  check_close("value", T(remat_value), T(value), 0);
  const auto one = decltype(value){T(1)};  // calx::sum gives a rank-0 tensor
  const auto [g0, gx] = pullback(one);
  const auto [h0, hx] = remat_pullback(one);
  check_close("ct c0", T(h0), T(g0), 16);
  for (int i : {0, 1, 4999, 9999}) check_close("ct xs", T(hx[i]), T(gx[i]), 16);
}
#endif

}  // namespace

#endif  // CALX_TESTS_CHECKPOINT_CASES_HPP
