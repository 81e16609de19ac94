/// @file tests/while_loop.cpp
/// @brief calx::while_loop (issue 10): one node, values and forward-mode derivatives
/// against closed forms, f32 and f64; under vmap each SIMD lane leaves the loop at its own
/// step (a lane that is done keeps its carry), compared with a C++ loop per sample.
///
/// Tolerances: the halving loop multiplies by 0.5 and 1.5 only, so it is exact (0 ulp);
/// Newton's iteration stops at a relative residual of 1e-5, so its root and derivative are
/// within 1e-5 (f64) or 1e-3 (f32, whose epsilon bounds the residual test) of the closed forms.

#include <_include/float_compare.hpp>

#include <calx/calx.hpp>

#include <catch2/catch.hpp>

#include <array>
#include <cmath>
#include <string>
#include <tuple>
#include <vector>

namespace {

using calx_test::text;
using calx_test::within_ulps;

template <class T>
void check_near(const std::string& what, T got, T want, std::uint64_t ulps) {
  INFO(what << ": got " << text(got) << ", want " << text(want));
  CHECK(within_ulps(got, want, ulps));
}

template <class T>
void check_relative(const std::string& what, T got, T want, T rel) {
  INFO(what << ": got " << text(got) << ", want " << text(want));
  CHECK(std::abs(got - want) <= rel * (T(1) + std::abs(want)));
}

/// Newton's iteration for sqrt(a), until the residual is small: a data-dependent exit.
constexpr auto newton_sqrt = [](auto a) {
  const auto r = calx::while_loop([](auto c) { return calx::abs(c[0] * c[0] - c[1]) > 1e-5 * c[1]; },
                                  [](auto c) { return std::array{0.5 * (c[0] + c[1] / c[0]), c[1]}; },
                                  std::array{a + 1.0, a});
  return r[0];
};
/// Halves x until it is at most 1, multiplying y by 1.5 each time: the step count is
/// ceil(log2 x), different per sample.
constexpr auto halvings = [](auto x, auto y) {
  const auto r = calx::while_loop([](auto c) { return c[0] > 1.0; },
                                  [](auto c) { return std::array{c[0] * 0.5, c[1] * 1.5}; }, std::array{x, y});
  return r[1] + r[0];
};
template <class T>
T halvings_reference(T x, T y) {
  while (x > T(1)) {
    x *= T(0.5);
    y *= T(1.5);
  }
  return y + x;
}

TEMPLATE_TEST_CASE("while_loop: one node, values, forward mode, vmap with per-lane exits", "[while_loop]", float,
                   double) {
  using T = TestType;
  const std::string printed = calx::to_string(calx::trace(halvings, T(1), T(1)));
  INFO(printed);
  CHECK(printed.find("= while_loop[") != std::string::npos);
  CHECK(printed.find("cond_fun={ lambda") != std::string::npos);
  CHECK(printed.find("body={ lambda") != std::string::npos);
  const T tol = std::is_same_v<T, float> ? T(1e-3) : T(1e-5);
  for (T a : {T(0.5), T(2), T(9), T(30)}) {
    INFO("a = " << text(a));
    check_relative("sqrt", calx::trace(newton_sqrt, a)(a), std::sqrt(a), tol);
    // the derivative of the iteration converges with it (JAX's jvp of while_loop)
    check_relative("d sqrt", calx::jacfwd(newton_sqrt)(a), T(0.5) / std::sqrt(a), tol);
    check_relative("jvp", calx::jvp(newton_sqrt, std::tuple{a}, std::tuple{T(2)}).second, T(1) / std::sqrt(a), tol);
  }
  std::vector<T> xs, ys;
  for (int i = 0; i < 35; ++i) {
    xs.push_back(T(0.4) * T(i) * T(i) + T(0.3));  // from 0 to 11 halvings
    ys.push_back(T(1) - T(0.02) * T(i));
  }
  const auto values = calx::vmap(halvings)(xs, ys);
  const auto dy = calx::vmap(calx::jacfwd(halvings, calx::argnums<1>))(xs, ys);
  for (std::size_t i = 0; i < xs.size(); ++i) {
    INFO("sample " << i);
    check_near("value", values[i], halvings_reference(xs[i], ys[i]), 0);
    T d = 1;  // 1.5 per halving
    for (T x = xs[i]; x > T(1); x *= T(0.5)) d *= T(1.5);
    check_near("d / dy", dy[i], d, 0);
  }
  const auto roots = calx::vmap(newton_sqrt)(xs);
  for (std::size_t i = 0; i < xs.size(); ++i) check_relative("vmap sqrt", roots[i], std::sqrt(xs[i]), tol);
  const T c = calx::while_loop([](T v) { return v < T(10); }, [](T v) { return v * T(3); }, T(1));
  CHECK(c == T(27));
}

}  // namespace
