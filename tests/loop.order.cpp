/// @file tests/loop.order.cpp
/// @brief Derivatives through loops and branches up to the third order, the limit
/// (docs/control-flow.md, "How far derivatives go"): `hessian` and `jacfwd(hessian)` of a
/// function with a `fori_loop` and a `cond`, against the same function written out by hand
/// (the loop unrolled, the cond a `where`: the same operations, so a few ulp apart) and
/// against central differences of the order below. Third derivatives of `scan` and
/// `while_loop`: tests/loop.order.scan_while.cpp; order 4 is refused in one message:
/// tests/fail/loop_derivative_order.cpp.

#include <calx/calx.hpp>

#include <catch2/catch.hpp>

#include <array>
#include <cmath>
#include <cstddef>
#include <tuple>
#include <type_traits>
#include <utility>

namespace {

constexpr auto step = [](auto, auto c) { return calx::sin(c) * 1.1 + c * c * 0.1; };

/// Three steps of a loop, then a cond on the carry.
constexpr auto looped = [](auto x, auto y) {
  auto c = calx::fori_loop(0, 3, step, x * y);
  return calx::cond(c > 0.2, [](auto a, auto b) { return a * a * b; }, [](auto a, auto b) { return a + b * b; }, c, y);
};

/// The same operations written out: the reference for every order.
constexpr auto unrolled = [](auto x, auto y) {
  auto c = x * y;
  for (int i = 0; i < 3; ++i) c = step(i, c);
  return calx::where(c > 0.2, c * c * y, c + y * y);
};

/// |got - want| <= rel * (1 + |want|).
bool near(double got, double want, double rel) { return std::abs(got - want) <= rel * (1 + std::abs(want)); }

/// A tuple of tuples (or of tuples of tuples) as nested std::arrays, to index by loop.
template <class T>
auto as_array(const T& v) {
  if constexpr (std::is_arithmetic_v<T>) {
    return v;
  } else {
    return std::apply([](const auto&... e) { return std::array{as_array(e)...}; }, v);
  }
}

// Both points on the same side of the cond (c > 0.2 at the first, below at the second), and
// far enough from the switch that a central difference does not cross it.
constexpr std::array<std::array<double, 2>, 2> points{{{0.7, 0.9}, {0.2, -0.4}}};

/// Central difference of `g` (a function of (x, y) giving nested arrays of the order below)
/// along argument k. h = 1e-5: truncation ~h^2 |f'''| ~ 1e-10, rounding ~1e-16 / h ~ 1e-11.
template <class G>
auto central(G g, double x, double y, int k) {
  const double h = 1e-5;
  const auto p = k == 0 ? g(x + h, y) : g(x, y + h);
  const auto m = k == 0 ? g(x - h, y) : g(x, y - h);
  auto d = p;
  for (std::size_t i = 0; i < d.size(); ++i) {
    if constexpr (std::is_arithmetic_v<std::decay_t<decltype(d[i])>>) {
      d[i] = (p[i] - m[i]) / (2 * h);
    } else {
      for (std::size_t j = 0; j < d[i].size(); ++j) d[i][j] = (p[i][j] - m[i][j]) / (2 * h);
    }
  }
  return d;
}

}  // namespace

TEST_CASE("loop order: hessian through fori_loop and cond", "[fori_loop][cond][hessian][order]") {
  const auto h = [](double x, double y) { return as_array(calx::hessian(looped, calx::argnums<0, 1>)(x, y)); };
  const auto g = [](double x, double y) { return as_array(calx::grad(looped, calx::argnums<0, 1>)(x, y)); };
  for (const auto& [x, y] : points) {
    const auto got = h(x, y);
    const auto want = as_array(calx::hessian(unrolled, calx::argnums<0, 1>)(x, y));
    for (int k = 0; k < 2; ++k) {
      const auto fd = central(g, x, y, k);  // column k of the Hessian
      for (int i = 0; i < 2; ++i) {
        INFO("x = " << x << ", y = " << y << ", H[" << i << "][" << k << "]");
        CHECK(near(got[i][k], want[i][k], 1e-12));
        CHECK(near(got[i][k], fd[i], 1e-7));
      }
    }
  }
}

TEST_CASE("loop order: jacfwd(hessian) through fori_loop and cond", "[fori_loop][cond][jacfwd][order]") {
  const auto third = [](double x, double y) {
    return as_array(calx::jacfwd(calx::hessian(looped, calx::argnums<0, 1>), calx::argnums<0, 1>)(x, y));
  };
  const auto h = [](double x, double y) { return as_array(calx::hessian(looped, calx::argnums<0, 1>)(x, y)); };
  for (const auto& [x, y] : points) {
    const auto got = third(x, y);
    const auto want =
        as_array(calx::jacfwd(calx::hessian(unrolled, calx::argnums<0, 1>), calx::argnums<0, 1>)(x, y));
    for (int k = 0; k < 2; ++k) {
      const auto fd = central(h, x, y, k);
      for (int i = 0; i < 2; ++i)
        for (int j = 0; j < 2; ++j) {
          INFO("x = " << x << ", y = " << y << ", T[" << i << "][" << j << "][" << k << "]");
          CHECK(near(got[i][j][k], want[i][j][k], 1e-12));
          CHECK(near(got[i][j][k], fd[i][j], 1e-6));
        }
    }
    // Symmetric in its three indices, up to the order of summation.
    CHECK(near(got[0][0][1], got[0][1][0], 1e-12));
    CHECK(near(got[0][1][1], got[1][1][0], 1e-12));
  }
}
