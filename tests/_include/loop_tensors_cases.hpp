/// @file tests/_include/loop_tensors_cases.hpp
/// @brief The cases of tests/loop_tensors.*.cpp, split into translation units for the
/// compile budget (each TU defines CALX_TEST_PART and CALX_TEST_REALS and includes this):
/// Tensor carries in calx's loops (issue 10): `fori_loop` (a tensor alone, and beside a
/// scalar) and `while_loop`, f32 and f64. Under grad, jvp, vjp, jacfwd, jacrev, hessian and
/// grad of grad (f64: see `second_order`), vmap and vmap of grad, against the same loop
/// unrolled while tracing (the same ops in the same order) and against finite differences
/// (`check_grads`, order 2); on plain numbers; and the IR: a tensor carry is one value, so
/// the program is the same size for 4 elements and for 1024. `scan` with tensors:
/// tests/_include/scan_tensors_cases.hpp.
///
/// Tolerances (tests/_include/loop_checks.hpp): loop and unrolled programs are the same
/// ops; they differ by fma contraction, by the precision of the index and by the order in
/// which cotangents are added. The derivatives add terms that cancel, so errors are bounded
/// relative to |want| + 1: 32 epsilons (64 at the second order), 128 for the SIMD loop
/// (whose libm differs from the scalar one by a few ulp per step).
#ifndef CALX_TESTS_LOOP_TENSORS_CASES_HPP
#define CALX_TESTS_LOOP_TENSORS_CASES_HPP

#include <_include/loop_checks.hpp>

#include <calx/calx.hpp>

#include <catch2/catch.hpp>

#include <array>
#include <cmath>
#include <cstddef>
#include <limits>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

namespace {

using namespace calx_test;

constexpr int steps = 6;

/// A state of 3 that decays and mixes through a nonlinearity, the index added in.
constexpr auto body = [](auto i, auto s) { return s * 0.9 + 0.1 * calx::sin(s * s) + 0.01 * i; };

constexpr auto looped = [](auto w, const auto& v) {
  const auto s = calx::fori_loop(0, steps, body, v * w);
  return calx::sum(s * s) * w;
};
constexpr auto looped_unrolled = [](auto w, const auto& v) {
  auto s = v * w;
  for (int i = 0; i < steps; ++i) s = body(static_cast<double>(i), s);
  return calx::sum(s * s) * w;
};

/// A carry of a tensor and a scalar that feed each other.
constexpr auto mixed = [](auto w, const auto& v) {
  const auto c = calx::fori_loop(
      0, steps,
      [](auto, auto c) {
        const auto [t, a] = c;
        return std::tuple{t * a + calx::sin(t), a * 0.9 + 0.01 * a * a};
      },
      std::tuple{v, w});
  return calx::sum(std::get<0>(c)) * std::get<1>(c);
};
constexpr auto mixed_unrolled = [](auto w, const auto& v) {
  auto c = std::tuple{v + 0.0 * w, w};
  for (int i = 0; i < steps; ++i) {
    const auto [t, a] = c;
    c = std::tuple{t * a + calx::sin(t), a * 0.9 + 0.01 * a * a};
  }
  return calx::sum(std::get<0>(c)) * std::get<1>(c);
};

/// Halving a vector until its squared norm is small: the trip count depends on the data.
constexpr auto halving = [](auto w, const auto& v) {
  const auto c = calx::while_loop([](auto c) { return calx::sum(c.first * c.first) > 0.01; },
                                  [](auto c) { return std::pair{c.first * 0.5, c.second + 1.0}; },
                                  std::pair{v * w, 0.0 * w});
  return calx::sum(c.first) + c.second;
};

#if CALX_TEST_PART == 0
TEST_CASE("loop tensors: a tensor carry is one value of one loop node", "[fori_loop][tensor]") {
  using T = double;
  const std::string text = calx::to_string(calx::trace(looped, T(1), vec<T>()));
  INFO(text);
  CHECK(text.find("= fori_loop[") != std::string::npos);
  CHECK(text.find("body={ lambda a:f64 b:f64[3] . let") != std::string::npos);
  // The IR grows with the program text, not with the carry's size.
  constexpr auto sized = [](auto w, const auto& v) {
    return calx::sum(calx::fori_loop(0, 1000, [](auto, auto s) { return s * 0.5 + calx::sin(s); }, v * w));
  };
  const auto small = calx::trace(sized, T(1), calx::tensor<T, 4>{});
  const auto large = calx::trace(sized, T(1), calx::tensor<T, 1024>{});
  CHECK(small.ir.size == large.ir.size);
  CHECK(calx::trace(calx::grad(sized), T(1), calx::tensor<T, 4>{}).ir.size ==
        calx::trace(calx::grad(sized), T(1), calx::tensor<T, 1024>{}).ir.size);
}
#endif

// f64: f32 runs the same programs, whose values and gradients the vmap case checks in f32.
#if CALX_TEST_PART == 1
TEST_CASE("loop tensors: fori_loop with a tensor carry, every transform to first order", "[fori_loop][tensor]") {
  using T = double;
  const auto v = vec<T>();
  for (const T w : {T(0.7), T(-1.2), T(1.5)}) {
    check_close("value", num(looped(w, v)), num(looped_unrolled(w, v)), 32);
    check_close("grad w", num(calx::grad(looped)(w, v)), num(calx::grad(looped_unrolled)(w, v)), 32);
    check_close("grad v", calx::grad(looped, calx::argnums<1>)(w, v), calx::grad(looped_unrolled, calx::argnums<1>)(w, v),
                32);
    check_close("jacfwd v", calx::jacfwd(looped, calx::argnums<1>)(w, v),
                calx::jacrev(looped_unrolled, calx::argnums<1>)(w, v), 32);
    check_close("jacrev v", calx::jacrev(looped, calx::argnums<1>)(w, v),
                calx::jacrev(looped_unrolled, calx::argnums<1>)(w, v), 32);
    const auto [y, dy] = calx::jvp(looped, std::tuple{w, v}, std::tuple{T(1), v});
    const auto [yu, dyu] = calx::jvp(looped_unrolled, std::tuple{w, v}, std::tuple{T(1), v});
    check_close("jvp value", num(y), num(yu), 32);
    check_close("jvp tangent", num(dy), num(dyu), 32);
    const auto [yv, pullback] = calx::vjp(looped, w, v);
    const auto [yvu, pullback_u] = calx::vjp(looped_unrolled, w, v);
    check_close("vjp value", num(yv), num(yvu), 32);
    const calx::tensor<T> one(T(1));  // the output is a rank-0 tensor: so is its cotangent
    check_close("vjp w", num(std::get<0>(pullback(one))), num(std::get<0>(pullback_u(one))), 32);
    check_close("vjp v", std::get<1>(pullback(one)), std::get<1>(pullback_u(one)), 32);
    check_close("mixed value", num(calx::trace(mixed, w, v)(w, v)), num(calx::trace(mixed_unrolled, w, v)(w, v)), 32);
    check_close("mixed grad w", num(calx::grad(mixed)(w, v)), num(calx::grad(mixed_unrolled)(w, v)), 32);
    check_close("mixed grad v", calx::grad(mixed, calx::argnums<1>)(w, v),
                calx::grad(mixed_unrolled, calx::argnums<1>)(w, v), 32);
  }
}
#endif

// Part 1's second derivatives, in TUs of their own for the compile budget.
#if CALX_TEST_PART == 5
TEST_CASE("loop tensors: fori_loop with a tensor carry, hessian", "[fori_loop][tensor]") {
  using T = double;
  const auto v = vec<T>();
  for (const T w : {T(0.7), T(-1.2), T(1.5)}) {
    check_close("hessian w", num(calx::hessian(looped)(w, v)), num(calx::hessian(looped_unrolled)(w, v)), 64);
    check_close("hessian v", calx::hessian(looped, calx::argnums<1>)(w, v),
                calx::hessian(looped_unrolled, calx::argnums<1>)(w, v), 64);
  }
}
#endif

#if CALX_TEST_PART == 6
TEST_CASE("loop tensors: fori_loop with a tensor carry, grad of grad and a mixed hessian", "[fori_loop][tensor]") {
  using T = double;
  const auto v = vec<T>();
  for (const T w : {T(0.7), T(-1.2), T(1.5)}) {
    check_close("grad of grad", num(calx::grad(calx::grad(looped))(w, v)),
                num(calx::grad(calx::grad(looped_unrolled))(w, v)), 64);
    check_close("mixed hessian", num(calx::hessian(mixed)(w, v)), num(calx::hessian(mixed_unrolled)(w, v)), 64);
  }
}
#endif

#if CALX_TEST_PART == 2
TEMPLATE_TEST_CASE("loop tensors: while_loop with a tensor carry", "[while_loop][tensor]", CALX_TEST_REALS) {
  using T = TestType;
  const auto v = vec<T>();
  for (const T w : {T(0.5), T(2.0), T(-3.0)}) {
    // Halving k times: sum(v w) / 2^k + k, with k the first count whose squared norm is small.
    T norm = 0;
    for (std::size_t e = 0; e < 3; ++e) norm += v[e] * v[e] * w * w;
    int k = 0;
    T scale = 1;
    while (norm * scale * scale > T(0.01)) scale *= T(0.5), ++k;
    const T sum = (v[0] + v[1] + v[2]) * w;
    check_close("value", num(halving(w, v)), sum * scale + T(k), 4);
    check_close("jacfwd", num(calx::jacfwd(halving)(w, v)), (v[0] + v[1] + v[2]) * scale, 4);
    // On plain numbers it is a C++ loop; a plain tensor carry too.
    const auto plain = calx::while_loop([](const auto& c) { return calx::sum(c * c) > T(0.01); },
                                        [](const auto& c) { return c * T(0.5); }, v * w);
    check_close("plain", plain[0], v[0] * w * scale, 0);
  }
}
#endif

#if CALX_TEST_PART == 2
TEMPLATE_TEST_CASE("loop tensors: under vmap", "[fori_loop][scan][vmap][tensor]", CALX_TEST_REALS) {
  using T = TestType;
  const auto v = vec<T>();
  std::vector<T> ws;
  for (int i = 0; i < 37; ++i) ws.push_back(T(-1.5) + T(0.08) * T(i));
  const auto values = calx::vmap(looped, calx::in_axes<0, calx::none>)(ws, v);
  const auto grads = calx::vmap(calx::grad(looped), calx::in_axes<0, calx::none>)(ws, v);
  const auto counts = calx::vmap(halving, calx::in_axes<0, calx::none>)(ws, v);
  for (std::size_t i = 0; i < ws.size(); ++i) {
    check_close("vmap value", num(values[i]), num(looped(ws[i], v)), 128);
    check_close("vmap grad", num(grads[i]), num(calx::grad(looped)(ws[i], v)), 128);
    check_close("vmap while", num(counts[i]), num(halving(ws[i], v)), 16);
  }
}
#endif

#if CALX_TEST_PART == 3
TEST_CASE("loop tensors: check_grads, orders 1 and 2", "[fori_loop][tensor]") {
  check_grads_1_2("fori_loop", [](auto x) { return looped(x, calx::tensor<double, 3>{} + 0.5 * x + 0.25); });
}
#endif

}  // namespace

#endif  // CALX_TESTS_LOOP_TENSORS_CASES_HPP
