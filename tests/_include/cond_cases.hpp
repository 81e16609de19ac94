/// @file tests/_include/cond_cases.hpp
/// @brief The cases of tests/cond.*.cpp, split into translation units for the
/// compile budget (each TU defines CALX_TEST_PART and CALX_TEST_REALS and includes this):
/// calx::cond and calx::switch_ (issue 10) under every transform, f32 and f64, against the branch it
/// takes: on numbers a traced cond evaluates one branch's program, and its derivatives are
/// that branch's derivatives. The branches are chosen so that the one not taken is NaN
/// (a square root and a log of a negative number) where the other is taken: no NaN may reach
/// a value or a derivative of the first or second order (JAX's cond). Under vmap with a
/// per-sample predicate the cond is a select of both branches, compared with a loop.
///
/// Tolerances: the cond's program and the branch's own are the same ops, evaluated the same
/// way, so values agree to a few ulp (4; fma contraction may differ between the two
/// programs' code); the SIMD loop's libm differs from the scalar one by a few ulp more (16).
#ifndef CALX_TESTS_COND_CASES_HPP
#define CALX_TESTS_COND_CASES_HPP

#include <_include/float_compare.hpp>

#include <calx/calx.hpp>
#include <calx/cond.hpp>

#include <catch2/catch.hpp>

#include <array>
#include <cmath>
#include <string>
#include <tuple>
#include <vector>

namespace {

using calx_test::text;
using calx_test::within_ulps;

constexpr auto on_positive = [](auto a, auto b) { return calx::sqrt(a) * b + calx::log(a) * a; };
constexpr auto on_negative = [](auto a, auto b) { return a * a * b - calx::exp(b) * calx::sin(a); };

constexpr auto f = [](auto x, auto y) { return calx::cond(x > 0.0, on_positive, on_negative, x, y); };
/// The branch f takes at x, on numbers.
template <class T>
T reference(T x, T y) {
  return x > 0 ? on_positive(x, y) : on_negative(x, y);
}

template <class T>
const std::vector<std::array<T, 2>> points = {{T(-2.5), T(0.5)}, {T(-0.5), T(-1.5)}, {T(0.25), T(2)},
                                              {T(1), T(-0.75)},  {T(3), T(1.25)}};

template <class T>
void check_near(const std::string& what, T got, T want, std::uint64_t ulps) {
  INFO(what << ": got " << text(got) << ", want " << text(want));
  CHECK(std::isfinite(got));
  CHECK(within_ulps(got, want, ulps));
}

#if CALX_TEST_PART == 0
TEMPLATE_TEST_CASE("cond: one node, its value the branch taken", "[cond]", CALX_TEST_REALS) {
  using T = TestType;
  const auto program = calx::trace(f, T(1), T(1));
  const std::string text = calx::to_string(program);
  INFO(text);
  CHECK(text.find("= cond[") != std::string::npos);  // one node, its branches nested
  CHECK(text.find("true_fn={ lambda") != std::string::npos);
  CHECK(text.find("sqrt a") != std::string::npos);
  CHECK(text.find("false_fn={ lambda") != std::string::npos);
  for (const auto& p : points<T>) {
    const T x = p[0], y = p[1];  // not a structured binding: clang 14 cannot capture one
    INFO("x " << x << " y " << y);
    check_near("value", f(x, y), reference(x, y), 0);  // plain numbers: the branch itself
    check_near("traced value", program(x, y), reference(x, y), 4);
    // A plain bool predicate calls the branch it names, traced or not.
    CHECK(calx::cond(x > 0, on_positive, on_negative, x, y) == reference(x, y));
  }
}
#endif

#if CALX_TEST_PART == 0
TEMPLATE_TEST_CASE("cond: grad, jvp, vjp, jacfwd, jacrev, hessian are the branch taken's", "[cond][grad]", CALX_TEST_REALS) {
  using T = TestType;
  for (const auto& p : points<T>) {
    const T x = p[0], y = p[1];  // not a structured binding: clang 14 cannot capture one
    INFO("x " << x << " y " << y);
    const bool pos = x > 0;
    const auto g = calx::grad(f, calx::argnums<0, 1>)(x, y);
    const auto gp = calx::grad(on_positive, calx::argnums<0, 1>)(x, y);
    const auto gn = calx::grad(on_negative, calx::argnums<0, 1>)(x, y);
    check_near("d/dx", std::get<0>(g), pos ? std::get<0>(gp) : std::get<0>(gn), 4);
    check_near("d/dy", std::get<1>(g), pos ? std::get<1>(gp) : std::get<1>(gn), 4);

    const auto [v, t] = calx::jvp(f, std::tuple{x, y}, std::tuple{T(0.5), T(-2)});
    const auto [vp, tp] = calx::jvp(on_positive, std::tuple{x, y}, std::tuple{T(0.5), T(-2)});
    const auto [vn, tn] = calx::jvp(on_negative, std::tuple{x, y}, std::tuple{T(0.5), T(-2)});
    check_near("jvp value", v, pos ? vp : vn, 4);
    check_near("jvp tangent", t, pos ? tp : tn, 4);

    const auto [vv, pullback] = calx::vjp(f, x, y);
    const auto ct = pullback(T(3));
    check_near("vjp value", vv, reference(x, y), 4);
    check_near("vjp d/dx", std::get<0>(ct), T(3) * (pos ? std::get<0>(gp) : std::get<0>(gn)), 4);

    const auto jf = calx::jacfwd(f, calx::argnums<0, 1>)(x, y);
    const auto jr = calx::jacrev(f, calx::argnums<0, 1>)(x, y);
    check_near("jacfwd d/dy", std::get<1>(jf), pos ? std::get<1>(gp) : std::get<1>(gn), 4);
    check_near("jacrev d/dx", std::get<0>(jr), pos ? std::get<0>(gp) : std::get<0>(gn), 4);

    // Second order, by reverse over reverse, forward over reverse and calx::hessian.
    auto second = [&](auto fn) { return calx::hessian(fn, calx::argnums<0, 1>)(x, y); };
    const auto h = second(f);
    const auto hp = second(on_positive);
    const auto hn = second(on_negative);
    const auto& hw = pos ? hp : hn;
    check_near("hessian xx", std::get<0>(std::get<0>(h)), std::get<0>(std::get<0>(hw)), 8);
    check_near("hessian xy", std::get<1>(std::get<0>(h)), std::get<1>(std::get<0>(hw)), 8);
    check_near("hessian yy", std::get<1>(std::get<1>(h)), std::get<1>(std::get<1>(hw)), 8);
    const T gxx = calx::grad(calx::grad(f))(x, y);
    check_near("grad(grad) xx", gxx, std::get<0>(std::get<0>(hw)), 8);
    const T jfx = calx::jacfwd(calx::grad(f))(x, y);
    check_near("jacfwd(grad) xx", jfx, std::get<0>(std::get<0>(hw)), 8);
  }
}
#endif

#if CALX_TEST_PART == 1
TEMPLATE_TEST_CASE("cond under vmap: a per-sample predicate selects, no NaN of the other branch", "[cond][vmap]", CALX_TEST_REALS) {
  using T = TestType;
  for (std::size_t n : {std::size_t{1}, std::size_t{7}, std::size_t{37}}) {
    INFO("samples: " << n);
    std::vector<T> xs(n), ys(n);
    for (std::size_t i = 0; i < n; ++i) {
      xs[i] = T(-3) + T(6) * static_cast<T>(i) / static_cast<T>(n);  // both signs
      ys[i] = T(0.5) + T(0.25) * static_cast<T>(i % 5);
    }
    const auto values = calx::vmap(f)(xs, ys);
    const auto grads = calx::vmap(calx::grad(f, calx::argnums<0, 1>))(xs, ys);
    const auto& [dx, dy] = grads;
    const auto second = calx::vmap(calx::grad(calx::grad(f)))(xs, ys);
    std::size_t wrong = 0;
    for (std::size_t i = 0; i < n; ++i) {
      const auto g = calx::grad(f, calx::argnums<0, 1>)(xs[i], ys[i]);
      wrong += !within_ulps(values[i], reference(xs[i], ys[i]), 16);
      wrong += !within_ulps(dx[i], std::get<0>(g), 16) || !within_ulps(dy[i], std::get<1>(g), 16);
      wrong += !within_ulps(second[i], calx::grad(calx::grad(f))(xs[i], ys[i]), 16);
    }
    CHECK(wrong == 0);
    // grad of a mean over the batch: the column is each sample's d/dx over n. Tolerance
    // 32 epsilons: the cotangent 1/n enters the branch's vjp at its start (a cond's vjp is
    // the cond of its branches' vjps), not as a factor at the end, and each of the vjp's
    // products rounds it on its own (measured: up to 17 ulps in f32, 6 in f64).
    constexpr auto loss = [](auto xs, auto ys) { return calx::mean(calx::vmap(f)(xs, ys)); };
    const auto column = calx::grad(loss)(xs, ys);
    REQUIRE(column.size() == n);
    wrong = 0;
    for (std::size_t i = 0; i < n; ++i)
      wrong += !(std::abs(column[i] - dx[i] / static_cast<T>(n)) <=
                 32 * std::numeric_limits<T>::epsilon() * std::abs(dx[i] / static_cast<T>(n)));
    CHECK(wrong == 0);
  }
}
#endif

// switch_: a chain of conds, index clamped to [0, n), as JAX's lax.switch.
constexpr auto three = std::tuple{[](auto a, auto b) { return calx::sin(a) * b; }, [](auto a, auto b) { return a * a - b; },
                                  [](auto a, auto b) { return calx::sqrt(a) + b; }};
constexpr auto pick = [](auto k, auto x, auto y) { return calx::switch_(k, three, x, y); };

#if CALX_TEST_PART == 1
TEMPLATE_TEST_CASE("switch_: the branch the index names, clamped, under grad and vmap", "[cond][switch]", CALX_TEST_REALS) {
  using T = TestType;
  const auto program = calx::trace(pick, 1, T(1), T(1));
  CHECK(calx::to_string(program).find("= cond[") != std::string::npos);
  const T x = T(2.25), y = T(-0.5);
  for (int k = -2; k <= 4; ++k) {
    INFO("index " << k);
    const int taken = k < 0 ? 0 : k > 2 ? 2 : k;
    const T want = taken == 0 ? std::get<0>(three)(x, y) : taken == 1 ? std::get<1>(three)(x, y) : std::get<2>(three)(x, y);
    check_near("plain", pick(k, x, y), want, 0);
    check_near("traced", program(k, x, y), want, 4);
    const auto g = calx::grad(pick, calx::argnums<1, 2>)(k, x, y);
    const auto gw = taken == 0   ? calx::grad(std::get<0>(three), calx::argnums<0, 1>)(x, y)
                    : taken == 1 ? calx::grad(std::get<1>(three), calx::argnums<0, 1>)(x, y)
                                 : calx::grad(std::get<2>(three), calx::argnums<0, 1>)(x, y);
    check_near("d/dx", std::get<0>(g), std::get<0>(gw), 4);
    check_near("d/dy", std::get<1>(g), std::get<1>(gw), 4);
  }
  // A per-sample index under vmap (a real one, truncated toward zero and clamped, as JAX
  // converts it): every branch in one batch.
  const std::vector<T> ks{T(0), T(1.5), T(2), T(5), T(-1), T(0.75), T(2.5)};
  const std::vector<T> xs(ks.size(), x);
  const auto values = calx::vmap(pick, calx::in_axes<0, 0, calx::none>)(ks, xs, y);
  std::size_t wrong = 0;
  for (std::size_t i = 0; i < ks.size(); ++i) {
    const int k = ks[i] < 1 ? 0 : ks[i] < 2 ? 1 : 2;
    wrong += !within_ulps(values[i], pick(k, xs[i], y), 16);
  }
  CHECK(wrong == 0);
}
#endif

// Structures and tensors through a cond: a std::array and a tensor in, a pair of a scalar
// and a tensor out. Away from x = 0 the cond's derivatives are those of the branch taken,
// written without a cond (`taken_true`, `taken_false`).
constexpr auto struct_true = [](const auto& p, const auto& v) { return std::pair{p[0] * p[1], calx::sin(v) * p[1]}; };
constexpr auto struct_false = [](const auto& p, const auto& v) { return std::pair{p[1] - p[0], v * p[0]}; };
constexpr auto combine = [](const auto& r) { return r.first + calx::sum(r.second * r.second); };
constexpr auto structured = [](auto x, auto y, const auto& v) {
  return combine(calx::cond(x > 0.0, struct_true, struct_false, std::array{x, y}, v));
};
constexpr auto taken_true = [](auto x, auto y, const auto& v) { return combine(struct_true(std::array{x, y}, v)); };
constexpr auto taken_false = [](auto x, auto y, const auto& v) { return combine(struct_false(std::array{x, y}, v)); };

// One precision (the op's code is one template for both; the cases above run f32 too):
// each costs seconds to compile.
#if CALX_TEST_PART == 2
TEST_CASE("cond: structures and tensors as operands and results, under grad, jvp and vmap", "[cond][tensor]") {
  using T = double;
  calx::tensor<T, 3> v;
  for (int i = 0; i < 3; ++i) v[i] = T(0.4) * T(i) - T(0.3);
  const std::string text = calx::to_string(calx::trace(structured, T(1), T(1), v));
  INFO(text);
  CHECK(text.find(":tuple = cond[") != std::string::npos);
  CHECK(text.find("[3] = get[1]") != std::string::npos);
  for (const T x : {T(-0.7), T(1.3)}) {
    INFO("x = " << x);
    const T y = T(0.6);
    const bool pos = x > 0;
    const T want = pos ? T(taken_true(x, y, v)) : T(taken_false(x, y, v));
    check_near("value", T(calx::trace(structured, x, y, v)(x, y, v)), want, 4);
    const auto g = calx::grad(structured, calx::argnums<0, 1, 2>)(x, y, v);
    const auto gt = pos ? calx::grad(taken_true, calx::argnums<0, 1, 2>)(x, y, v)
                        : calx::grad(taken_false, calx::argnums<0, 1, 2>)(x, y, v);
    check_near("d/dx", T(std::get<0>(g)), T(std::get<0>(gt)), 4);
    check_near("d/dy", T(std::get<1>(g)), T(std::get<1>(gt)), 4);
    for (int i = 0; i < 3; ++i) check_near("d/dv", T(std::get<2>(g)[i]), T(std::get<2>(gt)[i]), 4);
    const auto jv = calx::jvp(structured, std::tuple{x, y, v}, std::tuple{T(1), T(0.5), v});
    const auto jt = pos ? calx::jvp(taken_true, std::tuple{x, y, v}, std::tuple{T(1), T(0.5), v})
                        : calx::jvp(taken_false, std::tuple{x, y, v}, std::tuple{T(1), T(0.5), v});
    check_near("jvp", T(jv.second), T(jt.second), 4);
    const T h = calx::hessian(structured, calx::argnums<1>)(x, y, v);
    const T ht = pos ? T(calx::hessian(taken_true, calx::argnums<1>)(x, y, v))
                     : T(calx::hessian(taken_false, calx::argnums<1>)(x, y, v));
    check_near("hessian y", h, ht, 4);
  }
  // a predicate per sample: lanes that disagree run both branches and select
  const std::vector<T> xs{T(-1), T(0.5), T(-0.25), T(2), T(0.75), T(-3), T(1.5)};
  const auto values = calx::vmap(structured, calx::in_axes<0, calx::none, calx::none>)(xs, T(0.6), v);
  const auto grads = calx::vmap(calx::grad(structured), calx::in_axes<0, calx::none, calx::none>)(xs, T(0.6), v);
  std::size_t wrong = 0;
  for (std::size_t i = 0; i < xs.size(); ++i) {
    const bool pos = xs[i] > 0;
    wrong += !within_ulps(T(values[i]), pos ? T(taken_true(xs[i], T(0.6), v)) : T(taken_false(xs[i], T(0.6), v)), 16);
    wrong += !within_ulps(T(grads[i]), pos ? T(calx::grad(taken_true)(xs[i], T(0.6), v))
                                          : T(calx::grad(taken_false)(xs[i], T(0.6), v)), 16);
  }
  CHECK(wrong == 0);
}
#endif

}  // namespace

#endif  // CALX_TESTS_COND_CASES_HPP
