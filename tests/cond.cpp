/// @file tests/cond.cpp
/// @brief calx::cond and calx::switch_ (issue 10) under every transform, f32 and f64, against the branch it
/// takes: on numbers a traced cond evaluates one branch's program, and its derivatives are
/// that branch's derivatives. The branches are chosen so that the one not taken is NaN
/// (a square root and a log of a negative number) where the other is taken: no NaN may reach
/// a value or a derivative of the first or second order (JAX's cond). Under vmap with a
/// per-sample predicate the cond is a select of both branches, compared with a loop.
///
/// Tolerances: the cond's program and the branch's own are the same ops, evaluated the same
/// way, so values agree to a few ulp (4; fma contraction may differ between the two
/// programs' code); the SIMD loop's libm differs from the scalar one by a few ulp more (16).

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

TEMPLATE_TEST_CASE("cond: one node, its value the branch taken", "[cond]", float, double) {
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

TEMPLATE_TEST_CASE("cond: grad, jvp, vjp, jacfwd, jacrev, hessian are the branch taken's", "[cond][grad]", float,
                   double) {
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

TEMPLATE_TEST_CASE("cond under vmap: a per-sample predicate selects, no NaN of the other branch", "[cond][vmap]",
                   float, double) {
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
    // grad of a mean over the batch: the column is each sample's d/dx over n.
    constexpr auto loss = [](auto xs, auto ys) { return calx::mean(calx::vmap(f)(xs, ys)); };
    const auto column = calx::grad(loss)(xs, ys);
    REQUIRE(column.size() == n);
    wrong = 0;
    for (std::size_t i = 0; i < n; ++i)
      wrong += !(std::abs(column[i] - dx[i] / static_cast<T>(n)) <=
                 4 * std::numeric_limits<T>::epsilon() * std::abs(dx[i] / static_cast<T>(n)));
    CHECK(wrong == 0);
  }
}

// switch_: a chain of conds, index clamped to [0, n), as JAX's lax.switch.
constexpr auto three = std::tuple{[](auto a, auto b) { return calx::sin(a) * b; }, [](auto a, auto b) { return a * a - b; },
                                  [](auto a, auto b) { return calx::sqrt(a) + b; }};
constexpr auto pick = [](auto k, auto x, auto y) { return calx::switch_(k, three, x, y); };

TEMPLATE_TEST_CASE("switch_: the branch the index names, clamped, under grad and vmap", "[cond][switch]", float, double) {
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

}  // namespace
