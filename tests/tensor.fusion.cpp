/// @file tests/tensor.fusion.cpp
/// @brief Fusion of elementwise chains in straight-line code (detail/exec/fusion.hpp): which
/// nodes fuse (a chain read once, scalar broadcasts, chains that reductions of every
/// element fold, slices and pads that shift the flat index, masks (comparisons, `where`);
/// slices and pads along a later axis; not a value read twice, an output, or a tensor below
/// 32 elements), that
/// what a fused node reads keeps its register until the loop that computes it runs, and
/// that fused programs compute what the same math does element by element, in f32 and
/// f64, at sizes with and without a tail of SIMD batches, the gradient's program included.

#include <calx/calx.hpp>

#include <_include/fusion_roles.hpp>

#include <catch2/catch.hpp>

#include <array>
#include <cmath>
#include <cstddef>
#include <limits>
#include <tuple>

namespace {

using calx_test::count_role;
using calx_test::fused_role;
using calx_test::program;
using calx_test::roles;

template <class T, std::size_t N>
calx::tensor<T, N> ramp(double shift = 0) {
  calx::tensor<T, N> x;
  for (std::size_t e = 0; e < N; ++e) x[e] = T(-1.5 + 3.0 * double((e * 37) % N) / double(N) + shift);
  return x;
}

/// Close to rounding: calx's SIMD exp, sin and tanh against std:: (docs/performance.md).
template <class T>
bool close(double got, double want) {
  const double eps = sizeof(T) == 4 ? 8e-6 : 8e-15;
  return std::abs(got - want) <= eps * (std::abs(want) + 1.0);
}

// A chain read once, with scalar broadcasts: softmax's numerator.
constexpr auto shifted_exp = [](const auto& x) { return calx::exp(x - calx::max(x)) * 2.0 + 1.0; };
// `t` is read twice: it runs alone, each reader a loop of its own chain.
constexpr auto shared = [](const auto& x) {
  const auto t = calx::sin(x) * 3.0;
  return std::tuple{calx::exp(t) + 1.0, t * t};
};
// Reductions of every element fold chains as they compute them.
constexpr auto folds = [](const auto& x) {
  return std::tuple{calx::sum(calx::exp(x - calx::max(x))), calx::max(x * 2.0 - 1.0), calx::min(calx::sin(x) * x)};
};
// An intermediate that is also an output is written out.
constexpr auto with_output = [](const auto& x) {
  const auto t = x * 2.0;
  return std::tuple{t, calx::tanh(t) - x};
};
// `a = l * 2` runs inside `a + k`, after `k`: `l` is read there, so `k` must not take
// over `l`'s register (as it would if `a` ran where it stands, `l`'s last reader).
constexpr auto reused = [](const auto& m, const auto& x, const auto& y) {
  const auto l = calx::matvec(m, x);
  const auto a = l * 2.0;
  const auto k = calx::matvec(m, y);
  return a + k;
};

TEST_CASE("fusion: which nodes fuse", "[tensor][fusion]") {
  using X = calx::tensor<double, 64>;
  // sub, its broadcast of the max and the broadcasts of 2 and 1 inside; exp and mul inside
  // the last add, the one loop.
  constexpr const auto& a = roles<decltype(shifted_exp), X>;
  STATIC_REQUIRE(count_role(a, fused_role::loop) == 1);
  STATIC_REQUIRE(count_role(a, fused_role::inside) == 6);
  // sin and its broadcast inside mul (t, run alone, a loop); exp inside add; t * t alone.
  constexpr const auto& b = roles<decltype(shared), X>;
  STATIC_REQUIRE(count_role(b, fused_role::loop) == 2);
  STATIC_REQUIRE(count_role(b, fused_role::inside) == 4);
  // t, an output, is written out (a loop of its broadcast of 2); tanh inside the sub.
  constexpr const auto& c = roles<decltype(with_output), X>;
  STATIC_REQUIRE(count_role(c, fused_role::loop) == 2);
  STATIC_REQUIRE(count_role(c, fused_role::inside) == 2);
  // Each reduction a loop: exp, sub and the max's broadcast; mul, sub and two broadcasts;
  // sin and mul.
  constexpr const auto& f = roles<decltype(folds), X>;
  STATIC_REQUIRE(count_role(f, fused_role::loop) == 3);
  STATIC_REQUIRE(count_role(f, fused_role::inside) == 9);
  // Below 32 elements nothing fuses.
  STATIC_REQUIRE(count_role(roles<decltype(shifted_exp), calx::tensor<double, 31>>, fused_role::loop) == 0);
  // `a` and its broadcast inside `a + k`; `l` keeps its register until then.
  using M = calx::tensor<double, 64, 64>;
  constexpr const auto& d = roles<decltype(reused), M, X, X>;
  STATIC_REQUIRE(count_role(d, fused_role::inside) == 2);
  STATIC_REQUIRE(count_role(d, fused_role::loop) == 1);
  constexpr const auto& ir = program<decltype(reused), M, X, X>;
  constexpr auto products = [] {
    std::array<int, 2> s{};
    int k = 0;
    for (const auto& n : ir.nodes)
      if (n.op == calx::detail::ref_of<calx::tensordot_op>()) s[static_cast<std::size_t>(k++)] = n.slot;
    return s;
  }();
  STATIC_REQUIRE(products[0] != products[1]);
}

template <class T, std::size_t N>
void check_values() {
  using X = calx::tensor<T, N>;
  const X x = ramp<T, N>(), y = ramp<T, N>(0.25);
  const X s = calx::trace(shifted_exp, x)(x);
  double m = double(x[0]);
  for (std::size_t e = 0; e < N; ++e) m = std::max(m, double(x[e]));
  for (std::size_t e = 0; e < N; ++e) CHECK(close<T>(s[e], std::exp(double(x[e]) - m) * 2.0 + 1.0));

  const auto [u, v] = calx::trace(shared, x)(x);
  for (std::size_t e = 0; e < N; ++e) {
    const double t = std::sin(double(x[e])) * 3.0;
    CHECK(close<T>(u[e], std::exp(t) + 1.0));
    CHECK(close<T>(v[e], t * t));
  }
  // Sums grouped by batches: within N roundings of the sum of magnitudes (all positive).
  const auto [fs, fmx, fmn] = calx::trace(folds, x)(x);
  double ws = 0, wmx = 2.0 * double(x[0]) - 1.0, wmn = std::sin(double(x[0])) * double(x[0]);
  for (std::size_t e = 0; e < N; ++e) {
    ws += std::exp(double(x[e]) - m);
    wmx = std::max(wmx, 2.0 * double(x[e]) - 1.0);
    wmn = std::min(wmn, double(T(std::sin(double(x[e])))) * double(x[e]));
  }
  CHECK(std::abs(double(fs) - ws) <= double(N) * (sizeof(T) == 4 ? 2e-7 : 4e-16) * ws + (sizeof(T) == 4 ? 8e-6 : 8e-15) * ws);
  CHECK(double(fmx) == wmx);
  CHECK(close<T>(fmn, wmn));
  // A NaN anywhere is each fold's (max and min NaN-propagating, as the scalar ops).
  X z = x;
  z[N / 2] = std::numeric_limits<T>::quiet_NaN();
  const auto [zs, zmx, zmn] = calx::trace(folds, z)(z);
  CHECK(std::isnan(double(zs)));
  CHECK(std::isnan(double(zmx)));
  CHECK(std::isnan(double(zmn)));
  const auto [p, q] = calx::trace(with_output, x)(x);
  for (std::size_t e = 0; e < N; ++e) {
    CHECK(double(p[e]) == 2.0 * double(x[e]));
    CHECK(close<T>(q[e], std::tanh(2.0 * double(x[e])) - double(x[e])));
  }
  calx::tensor<T, N, N> mat;
  for (std::size_t i = 0; i < N; ++i)
    for (std::size_t j = 0; j < N; ++j) mat(i, j) = T(double((i * 7 + j * 3) % 11) / 11.0 - 0.5);
  const X r = calx::trace(reused, mat, x, y)(mat, x, y);
  for (std::size_t i = 0; i < N; ++i) {
    double l = 0, k = 0;
    for (std::size_t j = 0; j < N; ++j) {
      l += double(mat(i, j)) * double(x[j]);
      k += double(mat(i, j)) * double(y[j]);
    }
    CHECK(close<T>(r[i], 2.0 * l + k));
  }
  // The gradient's program fuses too: d/dx sum(exp(x - max x) * 2 + 1) * sin(x)), against
  // the closed form (the max's own derivative is zero but at the argmax, where it takes
  // minus the sum of the others).
  const auto loss = [](const auto& z) { return calx::sum(shifted_exp(z) * calx::sin(z)); };
  const X g = calx::grad(loss)(x);
  std::size_t arg = 0;
  for (std::size_t e = 0; e < N; ++e)
    if (double(x[e]) > double(x[arg])) arg = e;
  double rest = 0;
  for (std::size_t e = 0; e < N; ++e) rest += 2.0 * std::exp(double(x[e]) - m) * std::sin(double(x[e]));
  for (std::size_t e = 0; e < N; ++e) {
    const double xe = double(x[e]), ex = std::exp(xe - m);
    double want = 2.0 * ex * std::sin(xe) + (2.0 * ex + 1.0) * std::cos(xe);
    if (e == arg) want -= rest;
    INFO("N " << N << " e " << e);
    CHECK(std::abs(double(g[e]) - want) <= (sizeof(T) == 4 ? 2e-4 : 1e-12) * (std::abs(rest) + 1.0));
  }
}

TEST_CASE("fusion: fused programs compute the math", "[tensor][fusion]") {
  check_values<double, 32>();
  check_values<double, 61>();
  check_values<double, 64>();
  check_values<float, 32>();
  check_values<float, 61>();
  check_values<float, 64>();
}

// GradBench's ode_fun on y + k / 2: z[0] = x[0], z[i] = x[i] (y[i-1] + k[i-1] / 2). The two
// slices of x, the slice of the chain, the pads of concatenate and the chain run inside
// the add of the pads, one loop.
template <std::size_t N>
constexpr auto ode_stage = [](const auto& x, const auto& y, const auto& k) {
  const auto ya = y + k * 0.5;
  return calx::concatenate(calx::slice<0, 1>(x), calx::slice<1, N>(x) * calx::slice<0, N - 1>(ya));
};
// Runs across batches of SIMD lanes: [0, 5) and [5, N - 3) of x doubled and shifted, the
// last three elements of exp(x); then a slice of a chain as the output (the slice the loop).
template <std::size_t N>
constexpr auto pieces = [](const auto& x) {
  const auto a = calx::slice<0, 5>(x) * 2.0;
  const auto b = calx::slice<5, N - 3>(x) + calx::slice<3, N - 5>(x);
  const auto c = calx::slice<N - 3, N>(calx::exp(x));
  return std::tuple{calx::concatenate(a, b, c), calx::slice<2, N>(calx::sin(x) * 3.0)};
};
// Along the leading axis of a matrix, rows are runs of the flat index; along the second,
// runs in each row's block (`blocked_shift`): both fuse.
constexpr auto rows = [](const auto& m) {
  return std::tuple{calx::concatenate(calx::slice<0, 2>(m) * 2.0, calx::slice<2, 8>(m) + 1.0),
                    calx::concatenate(calx::slice<0, 2>(m, calx::axis<1>) * 2.0,
                                      calx::slice<2, 8>(m, calx::axis<1>) + 1.0, calx::axis<1>)};
};

// One slice of an input read by two chains, and the pad of a slice read by both: each
// reader reads through them (no copy of x[1:] is made), as GradBench's ode reads x[1:] in
// every RK4 stage.
template <std::size_t N>
constexpr auto two_readers = [](const auto& x, const auto& y) {
  const auto xs = calx::slice<1, N>(x);
  return std::tuple{calx::concatenate(calx::slice<0, 1>(x), xs * 2.0),
                    calx::concatenate(calx::slice<0, 1>(x), xs + calx::slice<0, N - 1>(y))};
};

// Masks fuse: comparisons inside `where`, `&&` and `!` of comparisons; `m` is read twice
// (by `&&` and by a where): a loop of its own (the product inside), of masks.
constexpr auto selects = [](const auto& x, const auto& y) {
  const auto m = x * 0.5 > y;
  return std::tuple{calx::where(x > 0.0, x * 2.0, calx::sin(x)),
                    calx::where(m && !(y < -1.0), x - y, y * y), calx::where(m, x, 0.0) * 3.0};
};

TEST_CASE("fusion: masks", "[tensor][fusion]") {
  using X = calx::tensor<double, 64>;
  // Loops: the three outputs (each with its chain inside: comparisons, not, and, where)
  // and m, which two nodes read: a loop of masks with its product inside.
  constexpr const auto& r = roles<decltype(selects), X, X>;
  STATIC_REQUIRE(count_role(r, fused_role::loop) == 4);
  constexpr const auto& ir = program<decltype(selects), X, X>;
  constexpr int mask_loops = [] {
    int k = 0;
    for (std::size_t j = 0; j < ir.size; ++j)
      if (ir.nodes[j].kind == calx::detail::value_kind::boolean && calx::detail::fusion_of<ir>[j] == fused_role::loop) ++k;
    return k;
  }();
  STATIC_REQUIRE(mask_loops == 1);
}

template <class T, std::size_t N>
void check_masks() {
  using X = calx::tensor<T, N>;
  const X x = ramp<T, N>(), y = ramp<T, N>(0.25) * T(0.5) + T(0.1);
  const auto [a, b, c] = calx::trace(selects, x, y)(x, y);
  for (std::size_t e = 0; e < N; ++e) {
    INFO("N " << N << " e " << e);
    const double xe = double(x[e]);
    CHECK(close<T>(a[e], xe > 0.0 ? xe * 2.0 : std::sin(xe)));
    CHECK(double(b[e]) == double(T(x[e] * T(0.5)) > y[e] && !(y[e] < T(-1)) ? T(x[e] - y[e]) : T(y[e] * y[e])));
    CHECK(double(c[e]) == double(T(x[e] * T(0.5)) > y[e] ? T(x[e] * T(3)) : T(0)));
  }
  // Through where's and max's rules: d/dx sum(where(x > 0, x^2, sin x)) + max(x).
  const auto loss = [](const auto& z) { return calx::sum(calx::where(z > 0.0, z * z, calx::sin(z))) + calx::max(z); };
  const X g = calx::grad(loss)(x);
  std::size_t arg = 0;
  for (std::size_t e = 0; e < N; ++e)
    if (x[e] > x[arg]) arg = e;
  for (std::size_t e = 0; e < N; ++e) {
    INFO("N " << N << " e " << e);
    const double xe = double(x[e]);
    CHECK(close<T>(g[e], (xe > 0.0 ? 2.0 * xe : std::cos(xe)) + (e == arg ? 1.0 : 0.0)));
  }
}

TEST_CASE("fusion: masks compute the math", "[tensor][fusion]") {
  check_masks<double, 32>();
  check_masks<double, 61>();
  check_masks<float, 64>();
  check_masks<float, 1000>();
}

TEST_CASE("fusion: slices and pads that shift the flat index", "[tensor][fusion]") {
  using X = calx::tensor<double, 64>;
  // The add of the two pads the loop; inside it the pads, the three slices, the product,
  // the chain's add and mul and the broadcast of 0.5.
  constexpr const auto& a = roles<decltype(ode_stage<64>), X, X, X>;
  STATIC_REQUIRE(count_role(a, fused_role::loop) == 1);
  STATIC_REQUIRE(count_role(a, fused_role::inside) == 9);
  // Below 32 elements nothing fuses.
  using S = calx::tensor<double, 31>;
  STATIC_REQUIRE(count_role(roles<decltype(ode_stage<31>), S, S, S>, fused_role::loop) == 0);
  // The concatenate's last add a loop, with its other add, the three pads, b and its two
  // slices and c's slice inside (a, of 5 elements, and exp(x), read by a slice of 3, are
  // written out); the second output, a slice of 62 elements, a loop of sin and mul.
  constexpr const auto& b = roles<decltype(pieces<64>), X>;
  STATIC_REQUIRE(count_role(b, fused_role::loop) == 2);
  STATIC_REQUIRE(count_role(b, fused_role::inside) == 11);
  // x[1:] and the pad of x[:1] inside both concatenates (read twice, no register); each
  // concatenate a loop that writes its output where the caller wants it (`direct_output`).
  constexpr const auto& t = roles<decltype(two_readers<64>), X, X>;
  STATIC_REQUIRE(count_role(t, fused_role::loop) == 2);
  STATIC_REQUIRE(count_role(t, fused_role::inside) == 9);
  constexpr const auto& tir = program<decltype(two_readers<64>), X, X>;
  constexpr int direct = [] {
    int k = 0;
    for (std::size_t j = 0; j < tir.size; ++j)
      if (calx::detail::fusion_of<tir>[j] == fused_role::loop && calx::detail::direct_output<tir>[j] >= 0) ++k;
    return k;
  }();
  STATIC_REQUIRE(direct == 2);
  // An output that another node reads is not written directly (with_output's t).
  constexpr const auto& wir = program<decltype(with_output), X>;
  STATIC_REQUIRE(calx::detail::direct_output<wir>[static_cast<std::size_t>(wir.outputs[0])] == -1);
  STATIC_REQUIRE(calx::detail::direct_output<wir>[static_cast<std::size_t>(wir.outputs[1])] == 1);
  // Rows of an 8 x 8 matrix fuse into the add of their pads, and so do columns (in both,
  // the first piece's slice and product, of 16 elements, below 32, are written out).
  constexpr const auto& c = roles<decltype(rows), calx::tensor<double, 8, 8>>;
  STATIC_REQUIRE(count_role(c, fused_role::loop) == 2);
  constexpr const auto& ir = program<decltype(rows), calx::tensor<double, 8, 8>>;
  constexpr int column_pads = [] {
    int k = 0;
    for (std::size_t j = 0; j < ir.size; ++j)
      if (ir.nodes[j].op == calx::detail::ref_of<calx::pad_op>() && ir.nodes[j].attr[0] == 1 &&
          calx::detail::fusion_of<ir>[j] != fused_role::inside)
        ++k;
    return k;
  }();
  STATIC_REQUIRE(column_pads == 0);
}

template <class T, std::size_t N>
void check_shifts() {
  using X = calx::tensor<T, N>;
  const X x = ramp<T, N>(), y = ramp<T, N>(0.25), k = ramp<T, N>(-0.5);
  const X z = calx::trace(ode_stage<N>, x, y, k)(x, y, k);
  CHECK(double(z[0]) == double(x[0]));
  for (std::size_t e = 1; e < N; ++e) {
    INFO("N " << N << " e " << e);
    CHECK(close<T>(z[e], double(x[e]) * (double(y[e - 1]) + double(k[e - 1]) * 0.5)));
  }
  const auto [p, q] = calx::trace(pieces<N>, x)(x);
  for (std::size_t e = 0; e < N; ++e) {
    INFO("N " << N << " e " << e);
    const double want = e < 5 ? 2.0 * double(x[e]) : e < N - 3 ? double(x[e]) + double(x[e - 2]) : std::exp(double(x[e]));
    CHECK(close<T>(p[e], want));
    if (e + 2 < N) CHECK(close<T>(q[e], std::sin(double(x[e + 2])) * 3.0));
  }
  const auto [t0, t1] = calx::trace(two_readers<N>, x, y)(x, y);
  CHECK(double(t0[0]) == double(x[0]));
  CHECK(double(t1[0]) == double(x[0]));
  for (std::size_t e = 1; e < N; ++e) {
    CHECK(double(t0[e]) == 2.0 * double(x[e]));
    CHECK(close<T>(t1[e], double(x[e]) + double(y[e - 1])));
  }
  // The gradient's program has the transposes: pads of the slices, slices of the pads.
  // d/dx_i sum(z * sin(x)) = z_i' sin(x_i) + z_i cos(x_i), z_0' = 1, z_i' = ya_{i-1}; d/dy_j
  // = x_{j+1} sin(x_{j+1}) (0 for the last).
  const auto loss = [](const auto& a, const auto& b, const auto& c) { return calx::sum(ode_stage<N>(a, b, c) * calx::sin(a)); };
  const auto [gx, gy] = calx::grad(loss, calx::argnums<0, 1>)(x, y, k);
  const double tol = sizeof(T) == 4 ? 2e-5 : 1e-13;
  for (std::size_t e = 0; e < N; ++e) {
    INFO("N " << N << " e " << e);
    const double ya = e == 0 ? 1.0 : double(y[e - 1]) + double(k[e - 1]) * 0.5;
    const double ze = e == 0 ? double(x[0]) : double(x[e]) * ya;
    CHECK(std::abs(double(gx[e]) - (ya * std::sin(double(x[e])) + ze * std::cos(double(x[e])))) <= tol * 4.0);
    const double wy = e + 1 < N ? double(x[e + 1]) * std::sin(double(x[e + 1])) : 0.0;
    CHECK(std::abs(double(gy[e]) - wy) <= tol * 4.0);
  }
}

TEST_CASE("fusion: slices and pads compute the math", "[tensor][fusion]") {
  check_shifts<double, 32>();
  check_shifts<double, 61>();
  check_shifts<double, 64>();
  check_shifts<float, 32>();
  check_shifts<float, 61>();
  check_shifts<float, 1000>();
  // A matrix: the rows' concatenate and the columns', fused, the math.
  using M = calx::tensor<double, 8, 8>;
  M m;
  for (std::size_t i = 0; i < 8; ++i)
    for (std::size_t j = 0; j < 8; ++j) m(i, j) = double(i * 8 + j) / 7.0 - 3.0;
  const auto [r, c] = calx::trace(rows, m)(m);
  for (std::size_t i = 0; i < 8; ++i)
    for (std::size_t j = 0; j < 8; ++j) {
      CHECK(r(i, j) == (i < 2 ? 2.0 * m(i, j) : m(i, j) + 1.0));
      CHECK(c(i, j) == (j < 2 ? 2.0 * m(i, j) : m(i, j) + 1.0));
    }
}

// A loop whose elements are also reduced whole: the loop folds the reduction as it writes
// them (`loop_folds`), softmax's `e = exp(x - max)`, `s = sum(e)`, `e / s`; with a max and a
// min, and through the pads of a concatenate (the loop in segments). N = 40 in f32 with AVX
// (8 lanes) is under the out-of-line loop's eight batches: the reductions then read the
// loops' results (with SSE's 4 lanes every loop here folds).
template <std::size_t N>
constexpr auto folded = [](const auto& x) {
  const auto e = calx::exp(x - calx::max(x));
  const auto s = calx::sum(e);
  const auto t = x * 3.0 - 1.0;
  const auto c = calx::concatenate(calx::slice<0, 3>(x) * 2.0, calx::slice<3, N>(x) + 1.0);
  return std::tuple{e * (1.0 / s), s, t + calx::max(t), calx::min(t), c * calx::sum(c)};
};

template <class T, std::size_t N>
void check_folded() {
  using X = calx::tensor<T, N>;
  X x = ramp<T, N>(0.25);
  const auto [p, s, u, mn, cc] = calx::trace(folded<N>, x)(x);
  double m = -1e300, want_s = 0, mt = -1e300, want_mn = 1e300, sc = 0;
  for (std::size_t e = 0; e < N; ++e) m = std::max(m, double(x[e]));
  for (std::size_t e = 0; e < N; ++e) {
    const double t = 3.0 * double(x[e]) - 1.0;
    want_s += std::exp(double(x[e]) - m);
    mt = std::max(mt, t);
    want_mn = std::min(want_mn, t);
    sc += e < 3 ? 2.0 * double(x[e]) : double(x[e]) + 1.0;
  }
  CHECK(close<T>(s, want_s));
  CHECK(double(mn) == Approx(want_mn).epsilon(1e-6));
  for (std::size_t e = 0; e < N; ++e) {
    CHECK(close<T>(p[e], std::exp(double(x[e]) - m) / want_s));
    CHECK(close<T>(u[e], 3.0 * double(x[e]) - 1.0 + mt));
    CHECK(close<T>(cc[e], (e < 3 ? 2.0 * double(x[e]) : double(x[e]) + 1.0) * sc));
  }
  // A NaN reaches the folded max and min; +inf the sum.
  x[N / 2] = std::numeric_limits<T>::quiet_NaN();
  const auto [p2, s2, u2, mn2, cc2] = calx::trace(folded<N>, x)(x);
  CHECK(std::isnan(double(u2[0])));
  CHECK(std::isnan(double(mn2)));
  x[N / 2] = std::numeric_limits<T>::infinity();
  const auto [p3, s3, u3, mn3, cc3] = calx::trace(folded<N>, x)(x);
  CHECK(std::isinf(double(cc3[0])));
}

TEST_CASE("fusion: a loop folds a reduction of its own elements", "[tensor][fusion]") {
  // s, max(t) and sum(c) are folded by the loops of e, t and c (t is read by `t + max(t)`
  // too, so it is written); min(t) is not (a loop folds one reduction), nor the max of x
  // (an input).
  constexpr auto& r = roles<decltype(folded<70>), calx::tensor<double, 70>>;
  STATIC_REQUIRE(count_role(r, fused_role::folded) == 3);
  constexpr auto& pf = program<decltype(folded<40>), calx::tensor<float, 40>>;
  STATIC_REQUIRE(count_role(calx::detail::fusion_of<pf>, fused_role::folded) == 3);
  check_folded<double, 70>();
  check_folded<float, 70>();
  check_folded<double, 40>();
  check_folded<float, 40>();
}

}  // namespace
