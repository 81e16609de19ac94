/// @file tests/_include/fori_loop_cases.hpp
/// @brief The cases of tests/fori_loop.*.cpp, split into translation units for the
/// compile budget (each TU defines CALX_TEST_PART and CALX_TEST_REALS and includes this):
/// calx::fori_loop (issue 10) under every transform, f32 and f64, against the loop
/// unrolled while tracing (the same ops in the same order, so the same numbers up to fma
/// contraction), and against finite differences (`check_grads`, orders 1 and 2). Runtime
/// trip counts (an argument of the traced function), per-sample trip counts under vmap, and
/// the one-node IR whose size does not depend on the trip count.
///
/// Tolerances: loop and unrolled programs are the same ops; they differ by fma contraction,
/// by the precision of the index (a traced f32 in the loop, a double constant unrolled)
/// and, for derivatives, by the order in which cotangents are added. The derivatives add
/// terms that cancel, so errors are bounded relative to |want| + 1 (16 epsilons; 64 for
/// the SIMD loop, whose libm differs from the scalar one by a few ulp per step). Finite differences: central, step
/// h = eps^(1/3) (first order) and eps^(1/4) (second order), relative 1e-6 (f64) / 2e-2 (f32).
#ifndef CALX_TESTS_FORI_LOOP_CASES_HPP
#define CALX_TESTS_FORI_LOOP_CASES_HPP

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
using calx_test::within_ulps;

/// A step with a nonlinear carry, the index and two carries that feed each other.
constexpr auto step = [](auto i, auto c) {
  return std::array{c[0] * calx::cos(c[1]) + 0.1 * i, c[1] + 0.2 * calx::sin(c[0] * c[1]) - 0.05 * c[0]};
};
constexpr int steps = 5;

constexpr auto looped = [](auto x, auto y) {
  const auto c = calx::fori_loop(0, steps, step, std::array{x, y});
  return c[0] * c[1] + c[0];
};
constexpr auto unrolled = [](auto x, auto y) {
  auto c = std::array{x, y};
  for (int i = 0; i < steps; ++i) c = step(static_cast<double>(i), c);
  return c[0] * c[1] + c[0];
};

template <class T>
const std::vector<std::array<T, 2>> points = {{T(0.3), T(-0.4)}, {T(-0.7), T(0.9)}, {T(1.1), T(0.2)}};

template <class T>
void check_near(const std::string& what, T got, T want, std::uint64_t ulps) {
  INFO(what << ": got " << text(got) << ", want " << text(want));
  CHECK(std::isfinite(got));
  CHECK(within_ulps(got, want, ulps));
}

/// Within `k` epsilons of `want`, relative to |want| + 1: derivatives of a loop add terms
/// that cancel, so their error is relative to the terms, not to the (small) sum.
template <class T>
void check_close(const std::string& what, T got, T want, int k) {
  INFO(what << ": got " << text(got) << ", want " << text(want));
  CHECK(std::isfinite(got));
  CHECK(std::abs(got - want) <= T(k) * std::numeric_limits<T>::epsilon() * (T(1) + std::abs(want)));
}

template <class T>
void check_relative(const std::string& what, T got, T want, T rel) {
  INFO(what << ": got " << text(got) << ", want " << text(want));
  CHECK(std::abs(got - want) <= rel * (T(1) + std::abs(want)));
}

#if CALX_TEST_PART == 0
TEMPLATE_TEST_CASE("fori_loop: one node whatever the trip count, its body nested", "[fori_loop]", CALX_TEST_REALS) {
  using T = TestType;
  const auto program = calx::trace(looped, T(1), T(1));
  const std::string text = calx::to_string(program);
  INFO(text);
  CHECK(text.find("= fori_loop[") != std::string::npos);
  CHECK(text.find("body={ lambda") != std::string::npos);
  CHECK(text.find("] 0.0 5.0 a b") != std::string::npos);  // the bounds, then the carries
  constexpr auto long_loop = [](auto x) {
    return calx::fori_loop(0, 100000, [](auto, auto c) { return c * 0.5 + 1.0; }, x);
  };
  constexpr auto short_loop = [](auto x) { return calx::fori_loop(0, 3, [](auto, auto c) { return c * 0.5 + 1.0; }, x); };
  std::string long_text = calx::to_string(calx::trace(long_loop, T(1)));
  const std::string short_text = calx::to_string(calx::trace(short_loop, T(1)));
  REQUIRE(long_text.find("] 0.0 1e+05 a") != std::string::npos);
  long_text.replace(long_text.find("1e+05"), 5, "3.0");
  CHECK(long_text == short_text);  // the same program but for the bound
  check_near("100000 steps", calx::trace(long_loop, T(1))(T(1)), T(2), 0);
}
#endif

#if CALX_TEST_PART == 0
TEMPLATE_TEST_CASE("fori_loop: values and every derivative equal the unrolled loop's", "[fori_loop]", CALX_TEST_REALS) {
  using T = TestType;
  for (const auto& p : points<T>) {
    const T x = p[0], y = p[1];
    INFO("at " << text(x) << ", " << text(y));
    check_close("value", calx::trace(looped, x, y)(x, y), calx::trace(unrolled, x, y)(x, y), 16);
    const auto g = calx::grad(looped, calx::argnums<0, 1>)(x, y);
    const auto gu = calx::grad(unrolled, calx::argnums<0, 1>)(x, y);
    check_close("grad x", std::get<0>(g), std::get<0>(gu), 16);
    check_close("grad y", std::get<1>(g), std::get<1>(gu), 16);
    const auto jv = calx::jvp(looped, std::tuple{x, y}, std::tuple{T(0.5), T(-1)});
    const auto jvu = calx::jvp(unrolled, std::tuple{x, y}, std::tuple{T(0.5), T(-1)});
    check_close("jvp", jv.second, jvu.second, 16);
    const auto [value, pullback] = calx::vjp(looped, x, y);
    const auto ct = pullback(T(2));
    check_close("vjp value", value, calx::trace(unrolled, x, y)(x, y), 16);
    check_close("vjp x", std::get<0>(ct), T(2) * std::get<0>(gu), 16);
    const auto jf = calx::jacfwd(looped, calx::argnums<0, 1>)(x, y);
    const auto jr = calx::jacrev(looped, calx::argnums<0, 1>)(x, y);
    check_close("jacfwd y", std::get<1>(jf), std::get<1>(gu), 16);
    check_close("jacrev y", std::get<1>(jr), std::get<1>(gu), 16);
    const auto h = calx::hessian(looped, calx::argnums<0, 1>)(x, y);
    const auto hu = calx::hessian(unrolled, calx::argnums<0, 1>)(x, y);
    check_close("hessian xx", std::get<0>(std::get<0>(h)), std::get<0>(std::get<0>(hu)), 16);
    check_close("hessian xy", std::get<1>(std::get<0>(h)), std::get<1>(std::get<0>(hu)), 16);
    check_close("hessian yx", std::get<0>(std::get<1>(h)), std::get<0>(std::get<1>(hu)), 16);
    check_close("hessian yy", std::get<1>(std::get<1>(h)), std::get<1>(std::get<1>(hu)), 16);
    constexpr auto dx = [](auto a, auto b) { return calx::grad(looped)(a, b); };
    constexpr auto dxu = [](auto a, auto b) { return calx::grad(unrolled)(a, b); };
    check_close("grad of grad", calx::grad(dx)(x, y), calx::grad(dxu)(x, y), 16);
  }
}
#endif

/// JAX's check_grads: jvp and vjp against central differences, orders 1 and 2.
#if CALX_TEST_PART == 1
TEMPLATE_TEST_CASE("fori_loop: check_grads, orders 1 and 2", "[fori_loop]", CALX_TEST_REALS) {
  using T = TestType;
  const T eps = std::numeric_limits<T>::epsilon();
  const T rel = std::is_same_v<T, float> ? T(2e-2) : T(1e-6);
  const T h1 = std::cbrt(eps), h2 = std::sqrt(std::sqrt(eps));
  constexpr auto fx = [](auto x) { return looped(x, 0.5 * x); };
  const auto f = calx::trace(fx, T(0));
  const auto df = calx::trace(calx::grad(fx), T(0));
  for (const auto& p : points<T>) {
    const T x = p[0];
    const T fd1 = (f(x + h1) - f(x - h1)) / (2 * h1);
    check_relative("jvp, order 1", calx::jvp(fx, std::tuple{x}, std::tuple{T(1)}).second, fd1, rel);
    check_relative("vjp, order 1", calx::grad(fx)(x), fd1, rel);
    const T fd2 = (df(x + h2) - df(x - h2)) / (2 * h2);
    check_relative("hessian (forward over reverse), order 2", calx::hessian(fx)(x), fd2, rel);
    check_relative("grad of grad (reverse over reverse), order 2", calx::grad(calx::grad(fx))(x), fd2, rel);
    check_relative("jacfwd of jacfwd, order 2", calx::jacfwd(calx::jacfwd(fx))(x), fd2, rel);
  }
}
#endif

#if CALX_TEST_PART == 1
TEMPLATE_TEST_CASE("fori_loop: vmap runs the loop across SIMD lanes", "[fori_loop][vmap]", CALX_TEST_REALS) {
  using T = TestType;
  std::vector<T> xs, ys;
  for (int i = 0; i < 37; ++i) {  // four groups of eight and a partial one
    xs.push_back(T(-1) + T(0.05) * T(i));
    ys.push_back(T(0.5) - T(0.03) * T(i));
  }
  const auto values = calx::vmap(looped)(xs, ys);
  const auto grads = calx::vmap(calx::grad(looped))(xs, ys);
  const auto hessians = calx::vmap(calx::hessian(looped))(xs, ys);
  for (std::size_t i = 0; i < xs.size(); ++i) {
    INFO("sample " << i);
    check_close("value", values[i], calx::trace(unrolled, xs[i], ys[i])(xs[i], ys[i]), 64);
    check_close("grad", grads[i], calx::grad(unrolled)(xs[i], ys[i]), 64);
    check_close("hessian", hessians[i], calx::hessian(unrolled)(xs[i], ys[i]), 64);
  }
  // grad of a mean over the batch: the loop's cotangents summed over the samples
  constexpr auto mean_loss = [](auto w, const auto& batch) {
    return calx::mean(calx::vmap([](auto v, auto b) { return looped(v, b); }, calx::in_axes<calx::none, 0>)(w, batch));
  };
  T want = 0;
  for (const T b : ys) want += calx::grad(unrolled)(T(0.3), b);
  want /= T(ys.size());
  check_close("grad of a mean over vmap", calx::grad(mean_loss)(T(0.3), ys), want, 64);
}
#endif

constexpr auto runtime_count = [](auto x, auto n) {
  return calx::fori_loop(0, n, [](auto i, auto c) { return c * 0.75 + calx::sin(c + i); }, x);
};
template <class T>
T runtime_reference(T x, int n) {
  for (int i = 0; i < n; ++i) x = x * T(0.75) + std::sin(x + T(i));
  return x;
}

#if CALX_TEST_PART == 2
TEMPLATE_TEST_CASE("fori_loop: trip counts known at run time, one per sample under vmap", "[fori_loop][vmap]", CALX_TEST_REALS) {
  using T = TestType;
  const auto program = calx::trace(runtime_count, T(0), 0);  // the count: an integer argument, traced
  for (int n : {0, 1, 7, 30}) {
    INFO("n = " << n);
    check_close("value", program(T(0.5), n), runtime_reference(T(0.5), n), 16);
    // forward mode needs no stored steps: it works with a runtime count
    const T fd = (runtime_reference(T(0.5) + T(1e-3), n) - runtime_reference(T(0.5) - T(1e-3), n)) / T(2e-3);
    check_relative("jacfwd", calx::jacfwd(runtime_count, calx::argnums<0>)(T(0.5), n), fd,
                   std::is_same_v<T, float> ? T(2e-2) : T(1e-5));
  }
  std::vector<T> xs, counts;
  for (int i = 0; i < 29; ++i) {
    xs.push_back(T(0.1) * T(i) - T(1));
    counts.push_back(T(i % 9));  // lanes of one group run different numbers of steps
  }
  const auto values = calx::vmap(runtime_count)(xs, counts);
  for (std::size_t i = 0; i < xs.size(); ++i) {
    INFO("sample " << i << ", " << counts[i] << " steps");
    check_close("value", values[i], runtime_reference(xs[i], static_cast<int>(counts[i])), 64);
  }
  const auto fixed = calx::vmap(runtime_count, calx::in_axes<0, calx::none>)(xs, T(5));
  for (std::size_t i = 0; i < xs.size(); ++i) check_close("one count for all", fixed[i], runtime_reference(xs[i], 5), 64);
}
#endif

#if CALX_TEST_PART == 2
TEMPLATE_TEST_CASE("fori_loop: plain numbers run a C++ loop", "[fori_loop]", CALX_TEST_REALS) {
  using T = TestType;
  const T c = calx::fori_loop(2, 5, [](int i, T v) { return v * T(2) + T(i); }, T(1));
  CHECK(c == T(((1 * 2 + 2) * 2 + 3) * 2 + 4));
  const auto pair = calx::fori_loop(0, 3, [](int, std::array<T, 2> v) { return std::array{v[1], v[0] + v[1]}; },
                                    std::array{T(0), T(1)});
  CHECK(pair[0] == T(2));
  CHECK(pair[1] == T(3));
}
#endif

/// A loop in a loop's body: under vmap the outer loop runs its step on SIMD batches, and
/// the inner loop's kernel runs inside that straight-line code, on registers of batches.
constexpr auto nested = [](auto x) {
  return calx::fori_loop(0, 3, [](auto, auto c) { return calx::fori_loop(0, 4, [](auto, auto d) { return calx::sin(d) + 0.5 * d; }, c) * 0.9; }, x);
};
template <class T>
T nested_reference(T x) {
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 4; ++j) x = std::sin(x) + T(0.5) * x;
    x = x * T(0.9);
  }
  return x;
}

#if CALX_TEST_PART == 2
TEMPLATE_TEST_CASE("fori_loop: a loop in a loop's body, under vmap", "[fori_loop][vmap]", CALX_TEST_REALS) {
  using T = TestType;
  std::vector<T> xs;
  for (int i = 0; i < 19; ++i) xs.push_back(T(-1) + T(0.1) * T(i));
  const auto values = calx::vmap(nested)(xs);
  for (std::size_t i = 0; i < xs.size(); ++i) {
    INFO("sample " << i);
    check_close("value", values[i], nested_reference(xs[i]), 64);
  }
}
#endif

}  // namespace

#endif  // CALX_TESTS_FORI_LOOP_CASES_HPP
