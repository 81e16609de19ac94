/// @file tests/vmap.cpp
/// @brief `calx::vmap`: the law vmap(f)(xs)[i] == f(xs[i]) for polynomial, transcendental,
/// selecting and three-argument functions, in float and double, at every batch size of
/// calx_test::batch_sizes (0 … 65537 and around the lane count); in_axes with calx::none
/// (scalar and structured broadcast arguments); out_axes none and 0; tuple, pair and array
/// results. Argument kinds (array-of-struct, spans, std::array, into()) and errors are in
/// vmap.sources.cpp; compositions in vmap.compose.cpp and vmap.transformed.cpp; threads
/// and allocation in vmap.threads.cpp and vmap.alloc.cpp.

#include <_include/float_compare.hpp>
#include <_include/vmap_support.hpp>

#include <calx/calx.hpp>
#include <calx/simd/batch.hpp>

#include <catch2/catch.hpp>

#include <array>
#include <cmath>
#include <cstddef>
#include <limits>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

namespace {

using calx_test::batch_sizes;
using calx_test::check_column;
using calx_test::column;
using calx_test::lanes_v;
using calx_test::tolerance;

// ---------------------------------------------------------------------------------------
// The functions. Constants are double literals: calx rounds them to T in the program.

constexpr auto poly = [](auto x) { return (x * x - 3.0) * x + 0.5 / (1.0 + x * x); };
constexpr auto transcendental = [](auto x) {
  return calx::sin(x) * calx::exp(-0.5 * x * x) + calx::log1p(x * x) + calx::tanh(x) + calx::erf(x) +
         calx::cos(3.0 * x);
};
constexpr auto select = [](auto x, auto y) {
  return calx::where(x > y, x * y, calx::min(x, y) - 0.5 * calx::max(x, y)) + calx::abs(x - y);
};
constexpr auto three = [](auto x, auto y, auto z) { return x * y + z / (1.0 + y * y) - calx::sqrt(x * x + z * z); };

/// transcendental against the scalar loop (libm): its six transcendental terms are each
/// at most ~2.9 in magnitude (log1p(16)); xsimd's kernels for sin, cos, exp, log1p and tanh
/// are within 2 ulp of glibc's, erf within 2 ulp in float and up to ~70 ulp in double
/// (measured over [-4, 4]: 68 ulp, i.e. 7.6e-15 at |erf| <= 1). Observed worst differences
/// of the sum: 9.5e-7 (float), 8.0e-15 (double). The tolerances are 4x those: far inside
/// T-vmap (1e-4 / 1e-7), absolute because the result is a sum of bounded terms that may
/// cancel to ~0.
template <class T>
constexpr tolerance libm_tolerance = sizeof(T) == 8 ? tolerance{0, 3.2e-14} : tolerance{0, 4e-6};

/// Inputs for `select` that exercise its branches' edge cases in the lanes: NaN (min/max
/// propagate it, comparisons are false), infinities, signed zeros and ties.
template <class T>
void add_specials(std::vector<T>& x, std::vector<T>& y) {
  constexpr T nan = std::numeric_limits<T>::quiet_NaN(), inf = std::numeric_limits<T>::infinity();
  for (std::size_t i = 0; i < x.size(); ++i) {
    if (i % 11 == 3) x[i] = nan;
    if (i % 13 == 5) y[i] = nan;
    if (i % 17 == 7) x[i] = inf;
    if (i % 19 == 2) y[i] = -inf;
    if (i % 23 == 4) x[i] = T(-0.0), y[i] = T(0.0);
    if (i % 29 == 6) y[i] = x[i];
  }
}

// ---------------------------------------------------------------------------------------
// The law on every batch size, against the scalar program and (double) the function run
// untransformed on numbers. For float the untransformed function is not an oracle: its
// double literals promote the arithmetic to double, where calx's float program rounds
// them to float. Bitwise, except where the compiler may contract a * b + c into an fma
// differently in the two code paths (calx_test::same_ops).

TEMPLATE_TEST_CASE("vmap of arithmetic functions equals the scalar loop bitwise", "[vmap]", float, double) {
  using T = TestType;
  const auto p_poly = calx::trace(poly, T{});
  const auto p_select = calx::trace(select, T{}, T{});
  const auto p_three = calx::trace(three, T{}, T{}, T{});
  // Terms stay below 32 in magnitude (x^3 and x*y on [-3, 3]).
  const tolerance same = calx_test::same_ops<T>(32);
  for (std::size_t n : batch_sizes<T>()) {
    const auto x = column<T>(n, -3, 3, 1), y = column<T>(n, -3, 3, 2), z = column<T>(n, -3, 3, 3);
    // + - * /: IEEE operations, correctly rounded on one lane or on several.
    const calx::batched<T> r = calx::vmap(poly)(x);
    check_column("vmap(poly) vs program", r, n, [&](std::size_t i) { return p_poly(x[i]); }, same);
    // sqrt is correctly rounded too.
    const auto r3 = calx::vmap(three)(x, y, z);
    STATIC_REQUIRE(std::is_same_v<decltype(r3), const calx::batched<T>>);
    check_column("vmap(three) vs program", r3, n, [&](std::size_t i) { return p_three(x[i], y[i], z[i]); }, same);
    // where, min, max, abs, comparisons: exact selections, also on NaN, inf and ±0.
    auto xs = x, ys = y;
    add_specials(xs, ys);
    const auto rs = calx::vmap(select)(xs, ys);
    check_column("vmap(select) vs program", rs, n, [&](std::size_t i) { return p_select(xs[i], ys[i]); }, same);
    if constexpr (std::is_same_v<T, double>) {
      check_column("vmap(poly) vs poly", r, n, [&](std::size_t i) { return poly(x[i]); }, same);
      check_column("vmap(three) vs three", r3, n, [&](std::size_t i) { return three(x[i], y[i], z[i]); }, same);
      check_column("vmap(select) vs select", rs, n, [&](std::size_t i) { return select(xs[i], ys[i]); }, same);
    }
  }
}

TEMPLATE_TEST_CASE("vmap of a transcendental function: the SIMD loop bitwise, libm within tolerance", "[vmap]", float,
                   double) {
  using T = TestType;
  const auto program = calx::trace(transcendental, T{});
  for (std::size_t n : batch_sizes<T>()) {
    const auto x = column<T>(n, -4, 4);
    const calx::batched<T> r = calx::vmap(transcendental)(x);
    // The loop evaluates the same program on xsimd batches, one sample per lane (terms
    // below 8 in magnitude).
    const auto simd =
        calx_test::simd_loop<T, 1>(n, [&](std::size_t i) { return std::array{program(calx_test::group(x, i))}; });
    check_column("vmap vs program on xsimd batches", r, n,
                 [&](std::size_t i) { return simd[0][i]; }, calx_test::same_ops<T>(8));
    check_column("vmap vs program on numbers (libm)", r, n,
                 [&](std::size_t i) { return program(x[i]); }, libm_tolerance<T>);
    if constexpr (std::is_same_v<T, double>)
      check_column("vmap vs transcendental(x)", r, n,
                   [&](std::size_t i) { return transcendental(x[i]); }, libm_tolerance<T>);
  }
}

TEST_CASE("vmap's result types", "[vmap]") {
  std::vector<double> xd{1.0, 2.0};
  std::vector<float> xf{1.0f, 2.0f};
  STATIC_REQUIRE(std::is_same_v<decltype(calx::vmap(poly)(xd)), calx::batched<double>>);
  STATIC_REQUIRE(std::is_same_v<decltype(calx::vmap(poly)(xf)), calx::batched<float>>);
  STATIC_REQUIRE(
      std::is_same_v<decltype(calx::vmap(select, calx::in_axes<0, calx::none>)(xd, 1.0)), calx::batched<double>>);
  CHECK(calx::vmap(poly)(xd).size() == 2);
}

// ---------------------------------------------------------------------------------------
// in_axes: calx::none broadcasts an argument (a number or a structure) to every sample.
// The broadcast part is computed once on scalars and the rest per sample: the same IEEE
// operations as the scalar program, so the comparisons are bitwise.

constexpr auto scaled = [](auto x, auto w) { return x * w + w * w - x / w; };
constexpr auto affine = [](auto x, auto p) { return p[0] * x + p[1]; };
constexpr auto nested = [](auto x, auto q) {
  return std::get<0>(q) * x + std::get<1>(q)[0] * x * x - std::get<1>(q)[1];
};

TEMPLATE_TEST_CASE("vmap with in_axes none broadcasts numbers and structures", "[vmap]", float, double) {
  using T = TestType;
  const T w = T(1.25);
  const std::array<T, 2> p{T(2.5), T(-0.75)};
  const std::tuple<T, std::array<T, 2>> q{T(0.5), {T(-1.5), T(3.0)}};
  const auto p_scaled = calx::trace(scaled, T{}, T{});
  const auto p_three = calx::trace(three, T{}, T{}, T{});
  const auto p_affine = calx::trace(affine, T{}, p);
  const auto p_nested = calx::trace(nested, T{}, q);
  const tolerance same = calx_test::same_ops<T>(32);  // terms below 32 in magnitude
  for (std::size_t n : batch_sizes<T>()) {
    const auto x = column<T>(n, -3, 3, 4), z = column<T>(n, -3, 3, 5);
    const auto first = calx::vmap(scaled, calx::in_axes<0, calx::none>)(x, w);
    check_column("in_axes<0, none>", first, n, [&](std::size_t i) { return p_scaled(x[i], w); }, same);
    const auto second = calx::vmap(scaled, calx::in_axes<calx::none, 0>)(w, x);
    check_column("in_axes<none, 0>", second, n, [&](std::size_t i) { return p_scaled(w, x[i]); }, same);
    const auto middle = calx::vmap(three, calx::in_axes<0, calx::none, 0>)(x, w, z);
    check_column("in_axes<0, none, 0>", middle, n, [&](std::size_t i) { return p_three(x[i], w, z[i]); }, same);
    const auto outer = calx::vmap(three, calx::in_axes<calx::none, 0, calx::none>)(w, x, T(-2));
    check_column("in_axes<none, 0, none>", outer, n, [&](std::size_t i) { return p_three(w, x[i], T(-2)); }, same);
    // One entry applies to every argument.
    const auto all = calx::vmap(three, calx::in_axes<0>)(x, z, x);
    check_column("in_axes<0> for three arguments", all, n,
                 [&](std::size_t i) { return p_three(x[i], z[i], x[i]); }, same);
    const auto ra = calx::vmap(affine, calx::in_axes<0, calx::none>)(x, p);
    check_column("broadcast std::array", ra, n, [&](std::size_t i) { return p_affine(x[i], p); }, same);
    const auto rn = calx::vmap(nested, calx::in_axes<0, calx::none>)(x, q);
    check_column("broadcast std::tuple<T, std::array<T, 2>>", rn, n,
                 [&](std::size_t i) { return p_nested(x[i], q); }, same);
  }
}

// ---------------------------------------------------------------------------------------
// Results with structure, and out_axes.

constexpr auto split = [](auto x, auto w) { return std::tuple{x * w, w * w}; };
constexpr auto swapped = [](auto x, auto w) { return std::pair{w * 2.0, x - w}; };
constexpr auto powers = [](auto x) { return std::array{x, x * x, x * x * x}; };
constexpr auto mixed = [](auto x) { return std::pair{x + 1.0, std::array{x * 0.5, x * x}}; };
constexpr auto passthrough = [](auto x, auto w) { return std::tuple{x, w, x * x, x * x}; };

TEMPLATE_TEST_CASE("vmap returns f's structure with column leaves; out_axes none returns a value once", "[vmap]", float,
                   double) {
  using T = TestType;
  using col = calx::batched<T>;
  const T w = T(-1.5);
  for (std::size_t n : batch_sizes<T>()) {
    const auto x = column<T>(n, -2, 2, 6);
    // out_axes<0, none>: the batch-independent second output is returned once, as a T
    // (even for an empty batch).
    const auto once = calx::vmap(split, calx::in_axes<0, calx::none>, calx::out_axes<0, calx::none>)(x, w);
    STATIC_REQUIRE(std::is_same_v<decltype(once), const std::tuple<col, T>>);
    check_column("out_axes<0, none>: element 0", std::get<0>(once), n, [&](std::size_t i) { return x[i] * w; });
    CHECK(calx_test::same_value(std::get<1>(once), T(w * w)));
    // out_axes 0 (the default, or spelled out) broadcasts it: one copy per sample, as JAX.
    const auto every = calx::vmap(split, calx::in_axes<0, calx::none>)(x, w);
    const auto every_spelled = calx::vmap(split, calx::in_axes<0, calx::none>, calx::out_axes<0, 0>)(x, w);
    STATIC_REQUIRE(std::is_same_v<decltype(every), const std::tuple<col, col>>);
    STATIC_REQUIRE(std::is_same_v<decltype(every_spelled), const std::tuple<col, col>>);
    check_column("out_axes 0: element 0", std::get<0>(every), n, [&](std::size_t i) { return x[i] * w; });
    check_column("out_axes 0: broadcast element 1", std::get<1>(every), n, [&](std::size_t) { return w * w; });
    check_column("out_axes<0, 0>: broadcast element 1", std::get<1>(every_spelled), n,
                 [&](std::size_t) { return w * w; });
    // A pair, with the unbatched element first.
    const auto pr = calx::vmap(swapped, calx::in_axes<0, calx::none>, calx::out_axes<calx::none, 0>)(x, w);
    STATIC_REQUIRE(std::is_same_v<decltype(pr), const std::pair<T, col>>);
    CHECK(calx_test::same_value(pr.first, T(w * 2)));
    check_column("pair: second", pr.second, n, [&](std::size_t i) { return x[i] - w; });
    // A std::array of outputs: one std::array per sample, indexed [sample][element] (JAX's
    // order: the mapped axis first), so that vmap(f)(x)[i] == f(x[i]).
    const auto pw = calx::vmap(powers)(x);
    STATIC_REQUIRE(std::is_same_v<decltype(pw), const calx::batched<std::array<T, 3>>>);
    check_column("array: x", calx_test::column_of(pw, [](const auto& s) { return s[0]; }), n,
                 [&](std::size_t i) { return x[i]; });
    check_column("array: x^2", calx_test::column_of(pw, [](const auto& s) { return s[1]; }), n,
                 [&](std::size_t i) { return x[i] * x[i]; });
    check_column("array: x^3", calx_test::column_of(pw, [](const auto& s) { return s[2]; }), n,
                 [&](std::size_t i) { return x[i] * x[i] * x[i]; });
    for (std::size_t i = 0; i < n; ++i) CHECK(pw[i] == powers(x[i]));
    // Nested: a pair (split) holding a column and one std::array per sample.
    const auto mx = calx::vmap(mixed)(x);
    STATIC_REQUIRE(std::is_same_v<decltype(mx), const std::pair<col, calx::batched<std::array<T, 2>>>>);
    check_column("nested: first", mx.first, n, [&](std::size_t i) { return x[i] + T(1); });
    check_column("nested: second[i][0]", calx_test::column_of(mx.second, [](const auto& s) { return s[0]; }), n,
                 [&](std::size_t i) { return x[i] * T(0.5); });
    check_column("nested: second[i][1]", calx_test::column_of(mx.second, [](const auto& s) { return s[1]; }), n,
                 [&](std::size_t i) { return x[i] * x[i]; });
    // Outputs that are inputs themselves (batched and broadcast), and one node returned twice.
    const auto pt = calx::vmap(passthrough, calx::in_axes<0, calx::none>, calx::out_axes<0, calx::none, 0, 0>)(x, w);
    STATIC_REQUIRE(std::is_same_v<decltype(pt), const std::tuple<col, T, col, col>>);
    check_column("an input returned", std::get<0>(pt), n, [&](std::size_t i) { return x[i]; });
    CHECK(calx_test::same_value(std::get<1>(pt), w));
    check_column("one value returned twice (first)", std::get<2>(pt), n, [&](std::size_t i) { return x[i] * x[i]; });
    check_column("one value returned twice (second)", std::get<3>(pt), n, [&](std::size_t i) { return x[i] * x[i]; });
  }
}

// ---------------------------------------------------------------------------------------
// The empty batch: every kind of result, nothing evaluated per sample.

TEST_CASE("vmap over an empty batch returns empty columns and still returns out_axes none values", "[vmap]") {
  const std::vector<double> none_x;
  CHECK(calx::vmap(poly)(none_x).empty());
  CHECK(calx::vmap(transcendental)(none_x).empty());
  const auto [a, b] = calx::vmap(split, calx::in_axes<0, calx::none>, calx::out_axes<0, calx::none>)(none_x, 3.0);
  CHECK(a.empty());
  CHECK(b == 9.0);
  const auto every = calx::vmap(split, calx::in_axes<0, calx::none>)(none_x, 3.0);
  CHECK(std::get<1>(every).empty());
  CHECK(calx::vmap(powers)(none_x).empty());
}

}  // namespace
