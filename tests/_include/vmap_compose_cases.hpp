/// @file tests/_include/vmap_compose_cases.hpp
/// @brief The cases of tests/vmap.compose.*.cpp, split into translation units for the
/// compile budget (each TU defines CALX_TEST_PART and includes this):
/// vmap of transforms (spec §6 C3, C7, D1): per-sample gradients vmap(grad(f)),
/// vmap(value_and_grad(f)), vmap(grad(grad(f))), a vmapped lambda calling calx::jvp,
/// vmap(hessian(f)) over array-of-struct samples, and vmap(vmap(f)) with a runtime outer
/// batch and a compile-time inner one. Each is compared at every batch size with
///  - the same transform evaluated on xsimd batches, lane by lane: bitwise, since vmap's
///    loop runs exactly that program with one sample per lane (calx_test::same_ops: a few
///    ulp where the compiler may contract a * b + c into an fma differently in the two);
///  - the same transform evaluated on numbers, sample by sample (the law
///    vmap(g)(xs)[i] == g(xs[i])): within the tolerances below, because xsimd's
///    transcendental kernels differ from libm by a few ulp.
#ifndef CALX_TESTS_VMAP_COMPOSE_CASES_HPP
#define CALX_TESTS_VMAP_COMPOSE_CASES_HPP

#include <_include/float_compare.hpp>
#include <_include/test_functions.hpp>
#include <_include/vmap_support.hpp>

#include <calx/calx.hpp>
#include <calx/simd/batch.hpp>

#include <catch2/catch.hpp>

#include <array>
#include <cstddef>
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
using calx_test::sample;
using calx_test::simd_loop;
using calx_test::tolerance;

using calx_test::fc;
using calx_test::fw;
constexpr auto h2 = [](auto p) { return p[0] * p[0] * p[1] + calx::sin(p[0] * p[1]) + calx::exp(0.5 * p[1]); };
constexpr auto per_jvp = [](auto x, auto t) { return calx::jvp(fc, std::tuple{x}, std::tuple{t}); };
constexpr auto inner_vmap = [](auto row) { return calx::vmap(fc)(row); };

/// Against the scalar loop (libm). The derivative programs of fc, fw and h2 combine a few
/// transcendental values (each within 2 ulp of libm in xsimd; erf is not used) with
/// polynomial factors; on the domains below results and terms stay under 16 in magnitude.
/// The bound is 4 ulp relative (rtol 4 eps) plus 2 ulp of 16 absolute (for results that
/// cancel towards 0): f64 (8.9e-16, 4.4e-15), f32 (4.8e-7, 2.4e-6), 10^8 (f64) and 40x
/// (f32) tighter than T-vmap. Observed (CALX_VMAP_STATS=1): 1 ulp at most (1.8e-15, 9.5e-7),
/// 0.23 of the bound.
template <class T>
constexpr tolerance libm_tolerance = sizeof(T) == 8 ? tolerance{8.9e-16, 4.4e-15} : tolerance{4.8e-7, 2.4e-6};

// ---------------------------------------------------------------------------------------

#if CALX_TEST_PART == 0
TEMPLATE_TEST_CASE("vmap(grad(f)) and vmap(grad(grad(f))) are per-sample derivatives", "[vmap][grad]", float, double) {
  using T = TestType;
  const tolerance same = calx_test::same_ops<T>(16);  // terms below 16 in magnitude
  for (std::size_t n : batch_sizes<T>()) {
    const auto x = column<T>(n, -3, 3, 1);
    const auto g1 = calx::vmap(calx::grad(fc))(x);
    const auto g2 = calx::vmap(calx::grad(calx::grad(fc)))(x);
    STATIC_REQUIRE(std::is_same_v<decltype(g1), const calx::batched<T>>);
    const auto simd = simd_loop<T, 2>(n, [&](std::size_t i) {
      const auto b = group(x, i);
      return std::array{calx::grad(fc)(b), calx::grad(calx::grad(fc))(b)};
    });
    check_column("vmap(grad(fc)) vs SIMD", g1, n, [&](std::size_t i) { return simd[0][i]; }, same);
    check_column("vmap(grad(grad(fc))) vs SIMD", g2, n, [&](std::size_t i) { return simd[1][i]; }, same);
    check_column("vmap(grad(fc)) vs loop", g1, n,
                 [&](std::size_t i) { return calx::grad(fc)(x[i]); }, libm_tolerance<T>);
    check_column("vmap(grad(grad(fc))) vs loop", g2, n,
                 [&](std::size_t i) { return calx::grad(calx::grad(fc))(x[i]); }, libm_tolerance<T>);
  }
}
#endif

#if CALX_TEST_PART == 0
TEMPLATE_TEST_CASE("vmap(grad(f, argnums)) and vmap(value_and_grad(f, argnums)) over two batches", "[vmap][grad]",
                   float, double) {
  using T = TestType;
  const tolerance same = calx_test::same_ops<T>(16);  // terms below 16 in magnitude
  using col = calx::batched<T>;
  constexpr auto g = calx::grad(fw, calx::argnums<0, 1>);
  constexpr auto vg = calx::value_and_grad(fw, calx::argnums<0, 1>);
  for (std::size_t n : batch_sizes<T>()) {
    const auto x = column<T>(n, -1.5, 1.5, 2), w = column<T>(n, -1.5, 1.5, 3);  // terms below 16
    const auto d = calx::vmap(g)(x, w);
    STATIC_REQUIRE(std::is_same_v<decltype(d), const std::tuple<col, col>>);
    const auto [value, grads] = calx::vmap(vg)(x, w);
    STATIC_REQUIRE(std::is_same_v<decltype(calx::vmap(vg)(x, w)), std::pair<col, std::tuple<col, col>>>);
    const auto simd = simd_loop<T, 3>(n, [&](std::size_t i) {
      const auto [v, gr] = vg(group(x, i), group(w, i));
      return std::array{v, std::get<0>(gr), std::get<1>(gr)};
    });
    check_column("vmap(grad) d/dx vs SIMD", std::get<0>(d), n, [&](std::size_t i) { return simd[1][i]; }, same);
    check_column("vmap(grad) d/dw vs SIMD", std::get<1>(d), n, [&](std::size_t i) { return simd[2][i]; }, same);
    check_column("vmap(value_and_grad) value vs SIMD", value, n, [&](std::size_t i) { return simd[0][i]; }, same);
    check_column("vmap(value_and_grad) d/dx vs SIMD", std::get<0>(grads), n,
                 [&](std::size_t i) { return simd[1][i]; }, same);
    check_column("vmap(value_and_grad) d/dw vs SIMD", std::get<1>(grads), n,
                 [&](std::size_t i) { return simd[2][i]; }, same);
    check_column("vmap(value_and_grad) value vs loop", value, n,
                 [&](std::size_t i) { return vg(x[i], w[i]).first; }, libm_tolerance<T>);
    check_column("vmap(value_and_grad) d/dx vs loop", std::get<0>(grads), n,
                 [&](std::size_t i) { return std::get<0>(vg(x[i], w[i]).second); }, libm_tolerance<T>);
    check_column("vmap(value_and_grad) d/dw vs loop", std::get<1>(grads), n,
                 [&](std::size_t i) { return std::get<1>(vg(x[i], w[i]).second); }, libm_tolerance<T>);
    // A broadcast parameter: the per-sample gradient with respect to it.
    const T w0 = T(0.75);
    const auto dw = calx::vmap(g, calx::in_axes<0, calx::none>)(x, w0);
    const auto simd_w = simd_loop<T, 2>(n, [&](std::size_t i) {
      const auto gr = g(group(x, i), xsimd::batch<T>(w0));
      return std::array{std::get<0>(gr), std::get<1>(gr)};
    });
    check_column("vmap(grad), in_axes<0, none>: d/dx vs SIMD", std::get<0>(dw), n,
                 [&](std::size_t i) { return simd_w[0][i]; }, same);
    check_column("vmap(grad), in_axes<0, none>: d/dw vs SIMD", std::get<1>(dw), n,
                 [&](std::size_t i) { return simd_w[1][i]; }, same);
    check_column("vmap(grad), in_axes<0, none>: d/dw vs loop", std::get<1>(dw), n,
                 [&](std::size_t i) { return std::get<1>(g(x[i], w0)); }, libm_tolerance<T>);
  }
}
#endif

#if CALX_TEST_PART == 0
TEMPLATE_TEST_CASE("vmap over a lambda calling calx::jvp: values and tangents per sample", "[vmap][jvp]", float,
                   double) {
  using T = TestType;
  const tolerance same = calx_test::same_ops<T>(16);  // terms below 16 in magnitude
  using col = calx::batched<T>;
  for (std::size_t n : batch_sizes<T>()) {
    const auto x = column<T>(n, -3, 3, 4), t = column<T>(n, -1, 1, 5);
    const auto r = calx::vmap(per_jvp)(x, t);
    STATIC_REQUIRE(std::is_same_v<decltype(r), const std::pair<col, col>>);
    const auto simd = simd_loop<T, 2>(n, [&](std::size_t i) {
      const auto [v, tv] = per_jvp(group(x, i), group(t, i));
      return std::array{v, tv};
    });
    check_column("vmap(jvp) primal vs SIMD", r.first, n, [&](std::size_t i) { return simd[0][i]; }, same);
    check_column("vmap(jvp) tangent vs SIMD", r.second, n, [&](std::size_t i) { return simd[1][i]; }, same);
    check_column("vmap(jvp) primal vs loop", r.first, n,
                 [&](std::size_t i) { return per_jvp(x[i], t[i]).first; }, libm_tolerance<T>);
    check_column("vmap(jvp) tangent vs loop", r.second, n,
                 [&](std::size_t i) { return per_jvp(x[i], t[i]).second; }, libm_tolerance<T>);
    // The tangent with in_axes none: one direction for every sample.
    const auto one_dir = calx::vmap(per_jvp, calx::in_axes<0, calx::none>)(x, T(1));
    check_column("vmap(jvp), tangent 1 == vmap(grad)", one_dir.second, n,
                 [&](std::size_t i) { return calx::grad(fc)(x[i]); }, libm_tolerance<T>);
  }
}
#endif

#if CALX_TEST_PART == 1
TEMPLATE_TEST_CASE("vmap(hessian(f)) over std::array samples", "[vmap][hessian]", float, double) {
  using T = TestType;
  const tolerance same = calx_test::same_ops<T>(16);  // terms below 16 in magnitude
  using B = xsimd::batch<T>;
  for (std::size_t n : batch_sizes<T>()) {
    std::vector<std::array<T, 2>> p(n);
    std::array<std::vector<T>, 2> pc{std::vector<T>(n), std::vector<T>(n)};
    for (std::size_t i = 0; i < n; ++i) {
      p[i] = {sample<T>(i, -2, 2, 6), sample<T>(i, -2, 2, 7)};
      pc[0][i] = p[i][0], pc[1][i] = p[i][1];
    }
    // One 2x2 Hessian per sample: h[sample][a][b].
    const auto hs = calx::vmap(calx::hessian(h2))(p);
    STATIC_REQUIRE(std::is_same_v<decltype(hs), const calx::batched<std::array<std::array<T, 2>, 2>>>);
    std::array<std::array<std::vector<T>, 2>, 2> h;
    for (std::size_t a = 0; a < 2; ++a)
      for (std::size_t b = 0; b < 2; ++b) h[a][b] = calx_test::column_of(hs, [&](const auto& s) { return s[a][b]; });
    const auto simd = simd_loop<T, 4>(n, [&](std::size_t i) {
      const auto hb = calx::hessian(h2)(std::array<B, 2>{group(pc[0], i), group(pc[1], i)});
      return std::array{hb[0][0], hb[0][1], hb[1][0], hb[1][1]};
    });
    for (std::size_t a = 0; a < 2; ++a)
      for (std::size_t b = 0; b < 2; ++b) {
        const std::string where = "H[" + std::to_string(a) + "][" + std::to_string(b) + "]";
        check_column("vmap(hessian) " + where + " vs SIMD", h[a][b], n,
                     [&](std::size_t i) { return simd[2 * a + b][i]; }, same);
        check_column("vmap(hessian) " + where + " vs loop", h[a][b], n,
                     [&](std::size_t i) { return calx::hessian(h2)(p[i])[a][b]; }, libm_tolerance<T>);
      }
    // Symmetric: the mixed partials are one derivative computed along two paths (forward
    // over reverse), equal up to rounding.
    check_column("vmap(hessian) symmetric", h[0][1], n, [&](std::size_t i) { return h[1][0][i]; }, libm_tolerance<T>);
  }
}
#endif

#if CALX_TEST_PART == 1
TEMPLATE_TEST_CASE("vmap(vmap(f)): a runtime batch of std::array<T, 4> rows", "[vmap]", float, double) {
  using T = TestType;
  const tolerance same = calx_test::same_ops<T>(16);  // terms below 16 in magnitude
  const auto program = calx::trace(fc, T{});
  for (std::size_t n : batch_sizes<T>()) {
    std::vector<std::array<T, 4>> rows(n);
    std::array<std::vector<T>, 4> cols;
    for (auto& c : cols) c.resize(n);
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t j = 0; j < 4; ++j) rows[i][j] = cols[j][i] = sample<T>(i, -3, 3, 8 + static_cast<unsigned>(j));
    // f's result per row is a std::array of 4 values, so the result is one std::array per
    // row: r[i][j] is f(rows[i][j]), JAX's order (the outer mapped axis first).
    const auto rs = calx::vmap(inner_vmap)(rows);
    STATIC_REQUIRE(std::is_same_v<decltype(rs), const calx::batched<std::array<T, 4>>>);
    std::array<std::vector<T>, 4> r;
    for (std::size_t j = 0; j < 4; ++j) r[j] = calx_test::column_of(rs, [&](const auto& s) { return s[j]; });
    const auto simd = simd_loop<T, 4>(n, [&](std::size_t i) {
      return std::array{program(group(cols[0], i)), program(group(cols[1], i)), program(group(cols[2], i)),
                        program(group(cols[3], i))};
    });
    for (std::size_t j = 0; j < 4; ++j) {
      const std::string where = "vmap(vmap(fc)) column " + std::to_string(j);
      check_column(where + " vs SIMD", r[j], n, [&](std::size_t i) { return simd[j][i]; }, same);
      check_column(where + " vs loop", r[j], n, [&](std::size_t i) { return program(rows[i][j]); }, libm_tolerance<T>);
    }
    // The inner vmap alone, untransformed, on one row: a std::array result.
    if (n > 0) {
      const std::array<T, 4> one = calx::vmap(fc)(rows[0]);
      for (std::size_t j = 0; j < 4; ++j) CHECK(one[j] == rs[0][j]);
    }
  }
}
#endif

}  // namespace

#endif  // CALX_TESTS_VMAP_COMPOSE_CASES_HPP
