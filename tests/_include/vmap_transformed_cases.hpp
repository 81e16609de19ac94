/// @file tests/_include/vmap_transformed_cases.hpp
/// @brief The cases of tests/vmap.transformed.*.cpp, split into translation units for the
/// compile budget (each TU defines CALX_TEST_PART and includes this):
/// Transforms of functions that call vmap (spec §6 C4): grad of a sum over
/// vmap(f) with a std::vector batch (the per-sample gradient column and the summed
/// gradient of a broadcast parameter), jvp(vmap(f)) with std::vector primals and tangents,
/// value_and_grad of a mean over vmap(f), and the traced std::array case (vmap inside
/// grad over a compile-time batch). Each is compared, at every batch size, with explicit
/// loops of the per-sample transform.
///
/// Oracles and tolerances:
///  - per-sample columns: bitwise against the per-sample transform evaluated on xsimd
///    batches lane by lane (the batched program runs exactly that per sample; a few ulp
///    where fma contraction may differ, see calx_test::same_ops), and within
///    `libm_tolerance` against the scalar loop (see vmap.compose.cpp for its derivation:
///    4 ulp relative plus 2 ulp of 16 absolute);
///  - sums over the batch: against the exact (long double) sum of the bitwise-checked
///    per-sample values, so the only error is the summation's: `sum_bound`.
#ifndef CALX_TESTS_VMAP_TRANSFORMED_CASES_HPP
#define CALX_TESTS_VMAP_TRANSFORMED_CASES_HPP

#include <_include/float_compare.hpp>
#include <_include/test_functions.hpp>
#include <_include/vmap_support.hpp>

#include <calx/calx.hpp>
#include <calx/simd/batch.hpp>

#include <catch2/catch.hpp>

#include <array>
#include <cmath>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

namespace {

using calx_test::batch_sizes;
using calx_test::check_column;
using calx_test::column;
using calx_test::group;
using calx_test::lanes_v;
using calx_test::simd_loop;
using calx_test::text;
using calx_test::tolerance;

using calx_test::fc;
using calx_test::fw;

constexpr auto sum_loss = [](auto xs, auto w) {
  return calx::sum(calx::vmap(fw, calx::in_axes<0, calx::none>)(xs, w));
};
constexpr auto mean_loss = [](auto xs, auto w) {
  return calx::mean(calx::vmap(fw, calx::in_axes<0, calx::none>)(xs, w));
};
constexpr auto mapped = [](auto xs) { return calx::vmap(fc)(xs); };
constexpr auto mapped_w = [](auto xs, auto w) { return calx::vmap(fw, calx::in_axes<0, calx::none>)(xs, w); };
constexpr auto array_loss = [](auto xs) { return calx::sum(calx::vmap(fc)(xs)); };
constexpr auto array_loss_w = [](auto xs, auto w) {
  return calx::mean(calx::vmap(fw, calx::in_axes<0, calx::none>)(xs, w));
};

template <class T>
constexpr tolerance libm_tolerance = sizeof(T) == 8 ? tolerance{8.9e-16, 4.4e-15} : tolerance{4.8e-7, 2.4e-6};

/// The rounding error of calx's sum of n values whose magnitudes add up to `sum_abs`:
/// each SIMD lane adds at most 2048 / W values of a chunk in sequence, the lanes are
/// added in log2(W) steps, and the ceil(n / 2048) chunk totals in sequence, each addition
/// contributing at most eps (a unit roundoff of 2^-p, doubled for margin) of the magnitudes
/// involved. This is the classic bound for recursive summation along the longest chain.
template <class T>
double sum_bound(std::size_t n, double sum_abs) {
  const double chain = static_cast<double>(std::min<std::size_t>(n, 2048) / lanes_v<T> + 3 + (n + 2047) / 2048);
  return chain * std::numeric_limits<T>::epsilon() * sum_abs;
}

/// The exact sum (in long double, whose 64-bit mantissa is exact enough for these n) of a column.
template <class C>
std::pair<long double, double> exact_sum(const C& c) {
  long double s = 0;
  double a = 0;
  for (const auto& v : c) s += v, a += std::abs(static_cast<double>(v));
  return {s, a};
}

void check_sum(const std::string& what, double got, long double want, double bound) {
  const double diff = std::abs(static_cast<double>(static_cast<long double>(got) - want));
  INFO(what << ": got " << text(got) << ", want " << text(static_cast<double>(want)) << ", |diff| " << diff
            << ", bound " << bound);
  if (std::getenv("CALX_VMAP_STATS") != nullptr)
    std::fprintf(stderr, "calx vmap stats: %-60s |diff| %.3g = %.3g of the bound\n", what.c_str(), diff, diff / bound);
  CHECK(diff <= bound);
}

// ---------------------------------------------------------------------------------------

#if CALX_TEST_PART == 0
TEMPLATE_TEST_CASE("grad of a sum over vmap(f): per-sample column and summed parameter gradient", "[vmap][grad]", float,
                   double) {
  using T = TestType;
  const tolerance same = calx_test::same_ops<T>(16);  // terms below 16 in magnitude
  constexpr auto g = calx::grad(fw, calx::argnums<0, 1>);
  const T w = T(0.75);
  for (std::size_t n : batch_sizes<T>()) {
    const std::vector<T> x = column<T>(n, -2, 2, 1);
    const auto d = calx::grad(sum_loss, calx::argnums<0, 1>)(x, w);
    STATIC_REQUIRE(std::is_same_v<decltype(d), const std::tuple<calx::batched<T>, T>>);
    const auto simd = simd_loop<T, 2>(n, [&](std::size_t i) {
      const auto gr = g(group(x, i), xsimd::batch<T>(w));
      return std::array{std::get<0>(gr), std::get<1>(gr)};
    });
    check_column("d sum / d xs vs SIMD", std::get<0>(d), n, [&](std::size_t i) { return simd[0][i]; }, same);
    check_column("d sum / d xs vs loop", std::get<0>(d), n,
                 [&](std::size_t i) { return std::get<0>(g(x[i], w)); }, libm_tolerance<T>);
    const auto [s, a] = exact_sum(simd[1]);
    check_sum("d sum / d w", std::get<1>(d), s, sum_bound<T>(n, a));
    if (n == 0) CHECK(calx_test::same_value(std::get<1>(d), T(0)));
  }
}
#endif

#if CALX_TEST_PART == 0
TEMPLATE_TEST_CASE("value_and_grad of a mean over vmap(f)", "[vmap][value_and_grad]", float, double) {
  using T = TestType;
  constexpr auto g = calx::value_and_grad(fw, calx::argnums<0, 1>);
  const T w = T(-1.25);
  for (std::size_t n : batch_sizes<T>()) {
    const std::vector<T> x = column<T>(n, -2, 2, 2);
    const auto [value, grads] = calx::value_and_grad(mean_loss, calx::argnums<0, 1>)(x, w);
    STATIC_REQUIRE(std::is_same_v<decltype(calx::value_and_grad(mean_loss, calx::argnums<0, 1>)(x, w)),
                                  std::pair<T, std::tuple<calx::batched<T>, T>>>);
    if (n == 0) {
      // The mean of no samples is 0 / 0, as in JAX (jnp.mean of an empty array is nan).
      CHECK(std::isnan(value));
      CHECK(std::get<0>(grads).empty());
      continue;
    }
    const auto simd = simd_loop<T, 3>(n, [&](std::size_t i) {
      const auto [v, gr] = g(group(x, i), xsimd::batch<T>(w));
      return std::array{v, std::get<0>(gr), std::get<1>(gr)};
    });
    const double nn = static_cast<double>(n);
    // Each sample's cotangent is 1/n, applied before the terms of d f/d x = w (1 -
    // tanh^2(w x)) + 3 w^2 x^2 are added (they cancel where the result is near 0): the
    // column is d f/d x_i / n up to a few roundings of those terms, whose magnitudes are
    // at most |w| + 3 w^2 x^2 <= 20 here. So 2 ulp relative plus 4 ulp of 20 / n absolute.
    const double eps = std::numeric_limits<T>::epsilon();
    const tolerance one_more{2 * eps, 4 * eps * 20 / nn};
    check_column("d mean / d xs vs SIMD / n", std::get<0>(grads), n,
                 [&](std::size_t i) { return static_cast<T>(simd[1][i] / nn); }, one_more);
    const tolerance loop_tol{libm_tolerance<T>.rtol + one_more.rtol, libm_tolerance<T>.atol / nn + one_more.atol};
    check_column("d mean / d xs vs loop / n", std::get<0>(grads), n,
                 [&](std::size_t i) { return static_cast<T>(std::get<0>(g(x[i], w).second) / nn); }, loop_tol);
    // The mean's value and d/dw are sums divided by n: the summation bound, plus one
    // rounding of the result.
    const auto [sv, av] = exact_sum(simd[0]);
    check_sum("mean value", value, sv / nn, sum_bound<T>(n, av) / nn + eps * std::abs(static_cast<double>(sv / nn)));
    const auto [sw, aw] = exact_sum(simd[2]);
    check_sum("d mean / d w", std::get<1>(grads), sw / nn,
              sum_bound<T>(n, aw) / nn + eps * std::abs(static_cast<double>(sw / nn)));
  }
}
#endif

#if CALX_TEST_PART == 0
TEMPLATE_TEST_CASE("jvp(vmap(f)) with std::vector primals and tangents", "[vmap][jvp]", float, double) {
  using T = TestType;
  const tolerance same = calx_test::same_ops<T>(16);  // terms below 16 in magnitude
  using col = calx::batched<T>;
  using B = xsimd::batch<T>;
  for (std::size_t n : batch_sizes<T>()) {
    const std::vector<T> x = column<T>(n, -3, 3, 3), t = column<T>(n, -1, 1, 4);
    const auto [value, tangent] = calx::jvp(mapped, std::tuple{x}, std::tuple{t});
    STATIC_REQUIRE(std::is_same_v<decltype(calx::jvp(mapped, std::tuple{x}, std::tuple{t})), std::pair<col, col>>);
    const auto simd = simd_loop<T, 2>(n, [&](std::size_t i) {
      const auto [v, tv] = calx::jvp(fc, std::tuple{group(x, i)}, std::tuple{group(t, i)});
      return std::array{v, tv};
    });
    check_column("jvp(vmap(fc)) value vs SIMD", value, n, [&](std::size_t i) { return simd[0][i]; }, same);
    check_column("jvp(vmap(fc)) tangent vs SIMD", tangent, n, [&](std::size_t i) { return simd[1][i]; }, same);
    check_column("jvp(vmap(fc)) tangent vs loop", tangent, n,
                 [&](std::size_t i) { return calx::jvp(fc, std::tuple{x[i]}, std::tuple{t[i]}).second; },
                 libm_tolerance<T>);
    // A broadcast parameter with its own (scalar) tangent: the tangent column is
    // d f/d x_i t_i + d f/d w t_w per sample.
    const T w = T(0.5), tw = T(-2);
    const auto [vw, tanw] = calx::jvp(mapped_w, std::tuple{x, w}, std::tuple{t, tw});
    const auto simd_w = simd_loop<T, 2>(n, [&](std::size_t i) {
      const auto [v, tv] = calx::jvp(fw, std::tuple{group(x, i), B(w)}, std::tuple{group(t, i), B(tw)});
      return std::array{v, tv};
    });
    check_column("jvp(vmap(fw, in_axes<0, none>)) value vs SIMD", vw, n,
                 [&](std::size_t i) { return simd_w[0][i]; }, same);
    check_column("jvp(vmap(fw, in_axes<0, none>)) tangent vs SIMD", tanw, n,
                 [&](std::size_t i) { return simd_w[1][i]; }, same);
    check_column("jvp(vmap(fw, in_axes<0, none>)) tangent vs loop", tanw, n,
                 [&](std::size_t i) { return calx::jvp(fw, std::tuple{x[i], w}, std::tuple{t[i], tw}).second; },
                 libm_tolerance<T>);
  }
}
#endif

// ---------------------------------------------------------------------------------------
// A compile-time batch inside a traced function: vmap maps f per element at trace time,
// and the whole program runs on numbers (libm), the same scalar code path as grad(f).

#if CALX_TEST_PART == 1
TEMPLATE_TEST_CASE("grad of a sum over vmap(f) with a std::array batch", "[vmap][grad]", float, double) {
  using T = TestType;
  const tolerance same = calx_test::same_ops<T>(16);  // terms below 16 in magnitude
  const std::array<T, 5> x{T(-2.5), T(-0.75), T(0), T(0.5), T(2.25)};
  const auto d = calx::grad(array_loss)(x);
  STATIC_REQUIRE(std::is_same_v<decltype(d), const std::array<T, 5>>);
  // Each element's cotangent is the sum's seed 1: the same operations as grad(fc) alone.
  check_column("grad(sum(vmap(fc)))(std::array) vs grad(fc)", d, 5,
               [&](std::size_t i) { return calx::grad(fc)(x[i]); }, same);

  // A broadcast parameter and a mean: d/dxs[i] is d f/d x_i / 5; d/dw the mean of the
  // per-element d f/d w, summed in some order: 5 additions and a division.
  const T w = T(1.5);
  const auto [v, g] = calx::value_and_grad(array_loss_w, calx::argnums<0, 1>)(x, w);
  STATIC_REQUIRE(std::is_same_v<decltype(g), const std::tuple<std::array<T, 5>, T>>);
  long double sv = 0, sw = 0;
  double av = 0, aw = 0;
  for (std::size_t i = 0; i < 5; ++i) {
    const auto [vi, gi] = calx::value_and_grad(fw, calx::argnums<0, 1>)(x[i], w);
    sv += vi, av += std::abs(static_cast<double>(vi));
    sw += std::get<1>(gi), aw += std::abs(static_cast<double>(std::get<1>(gi)));
  }
  const double eps = std::numeric_limits<T>::epsilon();
  check_sum("mean over std::array: value", v, sv / 5, 6 * eps * av / 5);
  check_sum("mean over std::array: d/dw", std::get<1>(g), sw / 5, 6 * eps * aw / 5);
  constexpr auto g_fw = calx::grad(fw, calx::argnums<0, 1>);
  check_column("mean over std::array: d/dxs", std::get<0>(g), 5,
               [&](std::size_t i) { return static_cast<T>(std::get<0>(g_fw(x[i], w)) / 5.0); },
               tolerance{2 * eps, 4 * eps * 20 / 5});
}
#endif

// A transform of a transform of a function that reduces over a runtime batch (issue 9):
// trace(grad(loss)), trace(value_and_grad(loss)), jvp(grad(loss)) and grad(grad(loss)) with
// the batch as an argument. The outer transform builds the inner one's program from the
// loss's trace on the same arguments, so the batch stays a batch (detail/call/gradient.hpp).
constexpr auto sin_sample = [](auto x, auto w) { return calx::sin(x * w); };
constexpr auto sin_loss = [](auto w, auto xs) {
  return calx::mean(calx::vmap(sin_sample, calx::in_axes<0, calx::none>)(xs, w));
};

/// sin_loss's first and second derivatives in w, in long double: d/dw = mean(x cos(w x)),
/// d2/dw2 = mean(-x^2 sin(w x)), each with the bound of a float or double sum of its terms
/// (the summation's worst case: n + 8 roundings of the mean of |terms|, sin and cos within a
/// few ulp each, and one rounding of the result).
struct sin_loss_derivatives {
  long double d1, d2, bound1, bound2;
};
template <class T>
sin_loss_derivatives sin_loss_closed_forms(T w, const std::vector<T>& x) {
  const double eps = std::numeric_limits<T>::epsilon();
  long double d1 = 0, d2 = 0, a1 = 0, a2 = 0;
  for (T xi : x) {
    const long double c = std::cos(static_cast<long double>(w) * xi), sn = std::sin(static_cast<long double>(w) * xi);
    d1 += xi * c, d2 -= xi * xi * sn, a1 += std::abs(xi * c), a2 += std::abs(xi * xi * sn);
  }
  const long double n = static_cast<long double>(x.size());
  return {d1 / n, d2 / n, (n + 8) * eps * a1 / n + eps * std::abs(d1 / n), (n + 8) * eps * a2 / n + eps * std::abs(d2 / n)};
}

#if CALX_TEST_PART == 1
TEMPLATE_TEST_CASE("transforms of a transform of a batch loss: trace(grad), jvp(grad), grad(grad)", "[vmap][grad][jvp]",
                   float, double) {
  using T = TestType;
  const T w = T(0.7);
  const double eps = std::numeric_limits<T>::epsilon();
  for (std::size_t n : {std::size_t{1}, std::size_t{7}, std::size_t{37}, std::size_t{3000}}) {
    INFO("samples: " << n);
    const std::vector<T> x = column<T>(n, -2, 2, 4);
    // Closed forms: sin_loss_closed_forms; d/dx_i = w cos(w x_i) / n.
    const sin_loss_derivatives want = sin_loss_closed_forms(w, x);
    const long double nn = static_cast<long double>(n);
    auto near1 = [&](double got) { return std::abs(static_cast<long double>(got) - want.d1) <= want.bound1; };
    auto near2 = [&](double got) { return std::abs(static_cast<long double>(got) - want.d2) <= want.bound2; };
    // trace(grad(loss)): the same program as grad(loss) on the numbers, so the same bits.
    const auto traced = calx::trace(calx::grad(sin_loss), w, x);
    const T g = calx::grad(sin_loss)(w, x);
    CHECK(traced(w, x) == g);
    CHECK(near1(g));
    const auto [value, g2] = calx::trace(calx::value_and_grad(sin_loss), w, x)(w, x);
    CHECK(g2 == g);
    CHECK(value == calx::trace(sin_loss, w, x)(w, x));
    // The gradient with respect to the batch: a column.
    const auto column_grad = calx::trace(calx::grad(sin_loss, calx::argnums<1>), w, x)(w, x);
    STATIC_REQUIRE(std::is_same_v<std::remove_cvref_t<decltype(column_grad)>, calx::batched<T>>);
    REQUIRE(column_grad.size() == n);
    std::size_t wrong = 0;
    for (std::size_t i = 0; i < n; ++i)
      wrong += !(std::abs(column_grad[i] - static_cast<long double>(w) * std::cos(static_cast<long double>(w) * x[i]) / nn) <=
                 8 * eps * (std::abs(static_cast<long double>(w)) / nn));
    CHECK(wrong == 0);
    // jvp(grad(loss)) in w: the second derivative as the tangent; grad(grad(loss)) the same.
    const auto [primal, tangent] = calx::jvp(calx::grad(sin_loss), std::tuple{w, x}, std::tuple{T(1), std::vector<T>(n, T(0))});
    CHECK(primal == g);
    CHECK(near2(tangent));
    CHECK(near2(calx::grad(calx::grad(sin_loss))(w, x)));
  }
}
#endif

// The same transforms called inside a traced function of one's own, on the batch argument
// (a calx::batch_tracer there) or on a value computed from it: the transform traces the
// loss over the batch, as it does on numbers. Each against the transform on the numbers.
#if CALX_TEST_PART == 1
TEMPLATE_TEST_CASE("a transform of a batch loss called inside one's own traced function", "[vmap][grad][jvp]", float,
                   double) {
  using T = TestType;
  const T w = T(0.7);
  const double eps = std::numeric_limits<T>::epsilon();
  for (std::size_t n : {std::size_t{1}, std::size_t{7}, std::size_t{37}, std::size_t{3000}}) {
    INFO("samples: " << n);
    const std::vector<T> x = column<T>(n, -2, 2, 5);
    std::vector<T> x2(n);
    for (std::size_t i = 0; i < n; ++i) x2[i] = T(2) * x[i];
    const T g = calx::grad(sin_loss)(w, x);
    // Closed forms: forward over reverse adds in another order than reverse over reverse,
    // so the second derivatives agree within the summation's bound, not bit for bit.
    const sin_loss_derivatives want = sin_loss_closed_forms(w, x);
    auto near2 = [&](double got) { return std::abs(static_cast<long double>(got) - want.d2) <= want.bound2; };
    // The batch as it is, and the result scaled: the same program, then one exact product.
    const auto twice = calx::trace(
        [](auto w, auto xs) {
          static_assert(std::is_same_v<decltype(xs), calx::batch_tracer>);
          static_assert(std::is_same_v<decltype(calx::sin(xs * w)), calx::batch_tracer>);
          static_assert(std::is_same_v<decltype(calx::mean(xs)), calx::tracer>);
          return 2.0 * calx::grad(sin_loss)(w, xs);
        },
        w, x);
    CHECK(twice(w, x) == T(2) * g);
    // A batch computed from the argument (2 x is exact): as grad on the doubled numbers.
    const auto doubled = calx::trace([](auto w, auto xs) { return calx::grad(sin_loss)(w, 2.0 * xs); }, w, x);
    CHECK(doubled(w, x) == calx::grad(sin_loss)(w, x2));
    const auto mapped_batch = calx::trace(
        [](auto w, auto xs) { return calx::grad(sin_loss)(w, calx::vmap([](auto v) { return v + v; })(xs)); }, w, x);
    CHECK(mapped_batch(w, x) == calx::grad(sin_loss)(w, x2));
    // value_and_grad, and the gradient with respect to the batch summed in the trace.
    const auto [v0, d0] = calx::value_and_grad(sin_loss)(w, x);
    const auto both = calx::trace(
        [](auto w, auto xs) {
          const auto [v, d] = calx::value_and_grad(sin_loss)(w, xs);
          return std::pair{v, d};
        },
        w, x);
    const auto [value, derivative] = both(w, x);
    CHECK(value == v0);
    CHECK(derivative == d0);
    const auto column_sum = calx::trace(
        [](auto w, auto xs) {
          const auto dxs = calx::grad(sin_loss, calx::argnums<1>)(w, xs);
          static_assert(std::is_same_v<std::remove_cvref_t<decltype(dxs)>, calx::batch_tracer>);
          return calx::sum(dxs);
        },
        w, x);
    const auto dxs = calx::grad(sin_loss, calx::argnums<1>)(w, x);
    long double s = 0, a = 0;
    for (std::size_t i = 0; i < n; ++i) s += dxs[i], a += std::abs(static_cast<long double>(dxs[i]));
    CHECK(std::abs(static_cast<long double>(column_sum(w, x)) - s) <= sum_bound<T>(n, static_cast<double>(a)));
    // jvp called inside the trace on the batch, its tangent a batch too (tangents in a trace
    // are traced values; w / w is exactly 1): in w, grad(grad).
    const auto hvp = calx::trace(
        [](auto w, auto xs) {
          return calx::jvp(calx::grad(sin_loss), std::tuple{w, xs}, std::tuple{w / w, 0.0 * xs}).second;
        },
        w, x);
    CHECK(near2(hvp(w, x)));
    // Transforms of the function of one's own: jvp in w gives the second derivative; grad
    // of g(w) w gives g'(w) w + g(w).
    constexpr auto inner = [](auto w, auto xs) { return calx::grad(sin_loss)(w, xs); };
    const auto [p, t] = calx::jvp(inner, std::tuple{w, x}, std::tuple{T(1), std::vector<T>(n, T(0))});
    CHECK(p == g);
    CHECK(near2(t));
    const T h = calx::grad([](auto w, auto xs) { return calx::grad(sin_loss)(w, xs) * w; })(w, x);
    const long double h_want = want.d2 * w + want.d1;
    CHECK(std::abs(static_cast<long double>(h) - h_want) <=
          want.bound2 * std::abs(w) + want.bound1 + 2 * eps * std::abs(h_want));
  }
}
#endif

}  // namespace

#endif  // CALX_TESTS_VMAP_TRANSFORMED_CASES_HPP
