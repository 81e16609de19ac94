/// @file tests/ops.logical.cpp
/// @brief Logical operations on masks (issue 30): `&&` / `&`, `||` / `|`, `!` / `~` and
/// `calx::logical_and` / `logical_or` / `logical_not` on traced masks, scalar and tensor,
/// `calx::any` / `calx::all`, as `where`, `cond` and `while_loop` predicates, under vmap
/// (lanes whose masks differ), and what the IR folds. Every traced value is checked against
/// the same function run on plain numbers (C++'s own bool logic), and derivatives through
/// a combined mask against the branch's closed form.

#include <_include/ir_inspect.hpp>

#include <calx/calx.hpp>

#include <catch2/catch.hpp>

#include <array>
#include <cmath>
#include <cstddef>
#include <limits>
#include <vector>

namespace {

// Piecewise: x * y inside the band 0 < x and not y > 1, or where x < -2; x + y elsewhere.
constexpr auto piecewise = [](auto x, auto y) {
  const auto m = ((x > 0.0) && !(y > 1.0)) || (x < -2.0);
  return calx::where(m, x * y, x + y);
};
// The same with the other spellings: &, | and the named functions. (Not ~: this function
// also runs on plain numbers, where ~ of a C++ bool is bitwise, ~true being -2, true.)
constexpr auto piecewise_bits = [](auto x, auto y) {
  const auto m = calx::logical_or((x > 0.0) & calx::logical_not(y > 1.0), calx::logical_not(x >= -2.0));
  return calx::where(m, x * y, x + y);
};
// ~ on traced masks: traced only.
constexpr auto piecewise_tilde = [](auto x, auto y) {
  const auto m = ((x > 0.0) & ~(y > 1.0)) | ~(x >= -2.0);
  return calx::where(m, x * y, x + y);
};

constexpr double nan = std::numeric_limits<double>::quiet_NaN();
const std::vector<double> xs{1.0, 1.0, -3.0, 0.5, -1.0, 2.0, 3.0, -4.0, 0.1, 0.0, -2.0, nan, 1.0};
const std::vector<double> ys{0.5, 2.0, 2.0, 0.2, 0.3, 1.5, 0.9, 5.0, 1.1, 0.7, 0.5, 1.0, nan};

bool same(double a, double b) { return (std::isnan(a) && std::isnan(b)) || a == b; }

}  // namespace

TEST_CASE("masks combine as C++ bools do, traced and on numbers", "[logical]") {
  const auto p = calx::trace(piecewise, 1.0, 2.0);
  const auto q = calx::trace(piecewise_bits, 1.0, 2.0);
  const auto r = calx::trace(piecewise_tilde, 1.0, 2.0);
  for (std::size_t k = 0; k < xs.size(); ++k) {
    const double x = xs[k], y = ys[k];
    const bool m = (x > 0.0 && !(y > 1.0)) || x < -2.0;  // NaN compares false, as in C++
    const double want = m ? x * y : x + y;
    INFO("x = " << x << ", y = " << y);
    CHECK(same(piecewise(x, y), want));  // on numbers: the functions run as written
    CHECK(same(piecewise_bits(x, y), want));
    CHECK(same(p(x, y), want));
    CHECK(same(q(x, y), want));
    CHECK(same(r(x, y), want));
  }
  // Plain bools: bool results.
  static_assert(std::is_same_v<decltype(calx::logical_and(true, false)), bool>);
  CHECK(calx::logical_or(false, true));
  CHECK_FALSE(calx::logical_not(true));
  CHECK(calx::any(true));
  CHECK_FALSE(calx::all(false));
}

TEST_CASE("the IR folds constants, repeats and double negation of masks", "[logical]") {
  using calx_test::count_named;
  // A plain bool beside a mask is a constant, and folds away.
  const auto a = calx::trace([](auto x) { return calx::where((x > 0.0) && true, x, -x); }, 1.0);
  CHECK(count_named(a.ir, "and") == 0);
  const auto b = calx::trace([](auto x) { return calx::where((x > 0.0) && false, x, -x); }, 1.0);
  CHECK(count_named(b.ir, "where") == 0);  // always -x
  CHECK(b(3.0) == -3.0);
  const auto c = calx::trace([](auto x) { return calx::where((x > 0.0) || true, x, -x); }, 1.0);
  CHECK(count_named(c.ir, "where") == 0);  // always x
  CHECK(c(-3.0) == -3.0);
  const auto d = calx::trace([](auto x) { return calx::where(!!(x > 0.0) || (x > 0.0), x, -x); }, 1.0);
  CHECK(count_named(d.ir, "not") == 0);
  CHECK(count_named(d.ir, "or") == 0);
  // a && b and b && a are one node.
  const auto e = calx::trace(
      [](auto x) {
        const auto m = x > 0.0, n = x < 1.0;
        return calx::where(m && n, x, -x) + calx::where(n & m, 2.0 * x, x);
      },
      1.0);
  CHECK(count_named(e.ir, "and") == 1);
  CHECK(e(0.5) == 0.5 + 1.0);
  CHECK(e(2.0) == -2.0 + 2.0);
}

TEST_CASE("derivatives flow through the branch a combined mask selects", "[logical]") {
  for (std::size_t k = 0; k < xs.size(); ++k) {
    const double x = xs[k], y = ys[k];
    if (std::isnan(x) || std::isnan(y)) continue;
    const bool m = (x > 0.0 && !(y > 1.0)) || x < -2.0;
    const auto g = calx::grad(piecewise, calx::argnums<0, 1>)(x, y);
    INFO("x = " << x << ", y = " << y);
    CHECK(std::get<0>(g) == (m ? y : 1.0));
    CHECK(std::get<1>(g) == (m ? x : 1.0));
    const auto [v, t] = calx::jvp(piecewise_bits, std::tuple{x, y}, std::tuple{1.0, 0.0});
    CHECK(v == (m ? x * y : x + y));
    CHECK(t == (m ? y : 1.0));
  }
}

TEST_CASE("under vmap each lane combines its own masks, f32 and f64", "[logical][vmap]") {
  std::vector<double> out(xs.size());
  calx::vmap(piecewise).into(out)(xs, ys);
  std::vector<float> xf(xs.begin(), xs.end()), yf(ys.begin(), ys.end()), of(xs.size());
  calx::vmap(piecewise_bits).into(of)(xf, yf);
  for (std::size_t k = 0; k < xs.size(); ++k) {
    INFO("lane " << k);
    CHECK(same(out[k], piecewise(xs[k], ys[k])));
    CHECK(same(static_cast<double>(of[k]), static_cast<double>(piecewise_bits(xf[k], yf[k]))));
  }
}

TEST_CASE("combined masks as cond and while_loop predicates", "[logical][cond][while_loop]") {
  constexpr auto band = [](auto x) {
    return calx::cond((x > 0.0) & (x < 1.0), [](auto v) { return v * v; }, [](auto v) { return -v; }, x);
  };
  const auto p = calx::trace(band, 0.5);
  CHECK(p(0.5) == 0.25);
  CHECK(p(2.0) == -2.0);
  CHECK(p(-1.0) == 1.0);
  CHECK(calx::grad(band)(0.5) == 1.0);
  CHECK(calx::grad(band)(2.0) == -1.0);
  // Doubles until above 10, and stops at once on a non-positive start: the lanes of a vmap
  // finish after different numbers of steps.
  constexpr auto doubling = [](auto x) {
    return calx::while_loop([](auto v) { return !(v > 10.0) && (v > 0.0); }, [](auto v) { return v * 2.0; }, x);
  };
  const std::vector<double> starts{1.0, 3.0, -2.0, 20.0, 0.0, 0.1};
  std::vector<double> ends(starts.size());
  calx::vmap(doubling).into(ends)(starts);
  for (std::size_t k = 0; k < starts.size(); ++k) {
    double v = starts[k];
    while (!(v > 10.0) && v > 0.0) v *= 2.0;
    INFO("start " << starts[k]);
    CHECK(ends[k] == v);
    CHECK(calx::trace(doubling, 1.0)(starts[k]) == v);
  }
  CHECK(calx::jvp(doubling, std::tuple{3.0}, std::tuple{1.0}).second == 4.0);  // 3 -> 6 -> 12: two doublings
}

namespace {
using vec = calx::tensor<double, 5>;
vec make(std::array<double, 5> v) {
  vec t;
  for (std::size_t k = 0; k < 5; ++k) t[k] = v[k];
  return t;
}
// Tensor masks: the band (0, 2] without 1.5 exactly, or anything when every element is
// above -1; combined with & | ~ && || ! and a scalar mask broadcast beside a tensor one.
constexpr auto masked_sum = [](const auto& t, auto s) {
  const auto band = (t > 0.0) & ~(t > 2.0) && !(t == 1.5);
  const auto keep = band || ((s > 0.0) & calx::all(t > -1.0));
  return calx::sum(calx::where(keep, t * t, 0.0 * t)) + calx::where(calx::any(t > 3.0), s, 2.0 * s);
};
}  // namespace

TEST_CASE("tensor masks: elementwise logic, broadcasting, any and all", "[logical][tensor]") {
  const std::array<std::array<double, 5>, 4> cases{{{1.0, 3.0, -0.5, 2.5, 1.5},
                                                     {0.5, 0.25, 1.5, 2.0, 2.5},
                                                     {-2.0, 0.5, 4.0, 1.0, 0.0},
                                                     {0.1, 0.2, 0.3, 0.4, 0.5}}};
  const auto p = calx::trace(masked_sum, vec{}, 1.0);
  for (const auto& c : cases)
    for (double s : {1.0, -1.0}) {
      const vec t = make(c);
      bool all_above = true, any_above = false;
      for (double v : c) {
        all_above = all_above && v > -1.0;
        any_above = any_above || v > 3.0;
      }
      double want = 0.0;  // summed in calx's order: the elements, then the scalar term
      std::array<double, 5> grad_want{};
      for (std::size_t k = 0; k < 5; ++k) {
        const bool keep = (c[k] > 0.0 && !(c[k] > 2.0) && c[k] != 1.5) || (s > 0.0 && all_above);
        want += keep ? c[k] * c[k] : 0.0;
        grad_want[k] = keep ? 2.0 * c[k] : 0.0;
      }
      want += any_above ? s : 2.0 * s;
      INFO("t = {" << c[0] << ", " << c[1] << ", " << c[2] << ", " << c[3] << ", " << c[4] << "}, s = " << s);
      CHECK(static_cast<double>(masked_sum(t, s)) == want);  // on numbers
      CHECK(static_cast<double>(p(t, s)) == want);
      const vec g = calx::grad(masked_sum)(t, s);
      for (std::size_t k = 0; k < 5; ++k) CHECK(g[k] == grad_want[k]);
    }
}

TEST_CASE("any and all over one axis, traced and on numbers", "[logical][tensor]") {
  calx::tensor<double, 2, 3> a;
  a(0, 1) = 1.0;
  a(1, 0) = 1.0;
  a(1, 1) = 1.0;
  a(1, 2) = 1.0;
  constexpr auto rows = [](const auto& m) {
    // 1 + 10 * (any of row r) + 100 * (all of row r), per row; and per column.
    const auto any_r = calx::any(m > 0.5, calx::axis<1>);
    const auto all_r = calx::all(m > 0.5, calx::axis<1>);
    const auto any_c = calx::any(m > 0.5, calx::axis<0>);
    const auto all_c = calx::all(m > 0.5, calx::axis<0>);
    return std::pair{1.0 + calx::where(any_r, 10.0, 0.0) + calx::where(all_r, 100.0, 0.0),
                     calx::where(any_c, 10.0, 0.0) + calx::where(all_c, 100.0, 0.0)};
  };
  const auto on_numbers = rows(a);
  const auto traced = calx::trace(rows, a)(a);
  for (const auto& [r, c] : {on_numbers, traced}) {
    CHECK(r[0] == 11.0);   // row 0: one element set
    CHECK(r[1] == 111.0);  // row 1: all set
    CHECK(c[0] == 10.0);
    CHECK(c[1] == 110.0);  // column 1: both set
    CHECK(c[2] == 10.0);
  }
}
