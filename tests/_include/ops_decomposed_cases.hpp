/// @file tests/_include/ops_decomposed_cases.hpp
/// @brief The cases of tests/ops.decomposed.*.cpp, split into translation units for the
/// compile budget (each TU defines CALX_TEST_PART and CALX_TEST_REALS, part 0 also
/// CALX_TEST_ROWS, and includes this):
/// The ops of calx/ops/hyperbolic.hpp, inverse_trigonometric.hpp, powers.hpp and
/// smooth.hpp (sinh ... clamp, relu), in float and double: values against a long double
/// reference, every partial derivative (calx::grad, with calx::argnums for 2- and 3-ary
/// ops) against the analytic derivative evaluated in long double, and vmap (the SIMD loop,
/// running the decomposition or the kernel on xsimd batches) against the scalar program.
/// Each op is one IR node when traced.
///
/// Each op has a table row: its reference value and partials, its inputs (edge values
/// spelled out: zeros, subnormals, the ends of the domain and the points where a formula
/// changes, overflow thresholds, infinities, NaN; plus seeded samples, log-uniform over
/// the magnitudes and uniform near the origin, about 200 in all) and its tolerances in ulp
/// (`ulps{float, double}`):
///  - value: the untransformed call (the op on plain numbers) and the traced program on
///    scalars, against the reference rounded to T. An infinite or NaN reference must be
///    matched exactly.
///  - partial: calx::grad (reverse mode) and calx::jvp (forward mode) against the derivative,
///    at every input where the reference value and derivative are defined (not NaN) and the
///    value does not overflow T; the conventions where they are not defined (hypot at the
///    origin and at infinities, logaddexp of equal infinities) are checked in their own
///    cases. clamp's references follow min's and max's tie rule.
///  - simd: vmap against the scalar program, in ulps between the two (xsimd's kernels differ
///    from libm's by a few ulp).
/// Each bound is about 2-4x the worst error measured (x86-64, g++ 12, glibc 2.36, xsimd
/// 8.1, SSE2 and AVX2+FMA builds) over the row's inputs with 500 times as many seeded
/// samples (CALX_TEST_MEASURE=500, about 100000 per op); the worst cases are noted next to
/// it as "measured value f/d, partial f/d, simd f/d".
/// An error is |got - want| over the spacing of T at want (the subnormal spacing below the
/// least normal), so a bound of 0.5 is a correctly rounded result.
#ifndef CALX_TESTS_OPS_DECOMPOSED_CASES_HPP
#define CALX_TESTS_OPS_DECOMPOSED_CASES_HPP

#include <_include/float_compare.hpp>
#include <_include/ir_inspect.hpp>

#include <calx/calx.hpp>

#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

namespace {

using ld = long double;
using calx_test::text;
using calx_test::within_ulps;

constexpr ld inf = std::numeric_limits<ld>::infinity();
constexpr ld nan = std::numeric_limits<ld>::quiet_NaN();
constexpr ld ln2 = 0.693147180559945309417232121458176568L;
constexpr ld ln10 = 2.30258509299404568401799145468436421L;

/// CALX_TEST_MEASURE=k prints the worst errors, over k times as many seeded samples.
const char* const measure_env = std::getenv("CALX_TEST_MEASURE");
const bool measuring = measure_env != nullptr;
const std::size_t sample_factor = measuring ? std::max(1, std::atoi(measure_env)) : 1;

/// The error of `got` against the exact `want` in units of the spacing of T at `want`, or
/// at `scale` when that is larger. NaN must match NaN and an infinite result (in T) must
/// match exactly: else infinity.
template <class T>
double ulp_error(T got, ld want, ld scale = 0) {
  if (std::isnan(want) || std::isnan(got)) return std::isnan(want) && std::isnan(got) ? 0 : HUGE_VAL;
  const T rounded = static_cast<T>(want);
  if (std::isinf(rounded) || std::isinf(got)) return got == rounded ? 0 : HUGE_VAL;
  const ld at = std::max(std::fabs(want), std::fabs(scale));
  const int e = std::max(at == 0 ? std::numeric_limits<int>::min() : std::ilogb(at),
                         std::numeric_limits<T>::min_exponent - 1);
  const ld spacing = std::ldexp(ld(1), e - (std::numeric_limits<T>::digits - 1));
  return static_cast<double>(std::fabs(static_cast<ld>(got) - want) / spacing);
}

/// A bound per precision.
struct ulps {
  double f, d;
  template <class T>
  double of() const {
    return sizeof(T) == 4 ? f : d;
  }
};
struct bounds {
  ulps value, partial, simd;
};

template <std::size_t N>
using args_t = std::array<ld, N>;

/// What a row may change in how errors are measured (each null by default):
/// - `scale`: value errors are in ulps of max(|want|, |scale(x)|), for a result that is a
///   sum whose rounding is relative to its larger term;
/// - `slack`: ulps added to the partials' bound at x, for a derivative whose conditioning
///   grows with its input.
template <std::size_t N>
struct measure {
  ld (*scale)(const args_t<N>&) = nullptr;
  double (*slack)(const args_t<N>&) = nullptr;
};

/// One op: `fn` calls it (a stateless lambda: traced, differentiated and vmapped), `value`
/// and `partial` are the references, `inputs(T{})` the inputs in precision T.
template <std::size_t N, class Fn, class Inputs>
struct op_row {
  const char* name;
  Fn fn;
  ld (*value)(const args_t<N>&);
  std::array<ld (*)(const args_t<N>&), N> partial;
  Inputs inputs;
  bounds tol;
  measure<N> how;
};
template <std::size_t N, class Fn, class Inputs>
op_row<N, Fn, Inputs> row(const char* name, Fn fn, ld (*value)(const args_t<N>&),
                          std::array<ld (*)(const args_t<N>&), N> partial, Inputs inputs, bounds tol,
                          measure<N> how = {}) {
  return {name, fn, value, partial, inputs, tol, how};
}

// ---------------------------------------------------------------------------------------
// Inputs.

/// A seeded generator of uniform doubles in [0, 1) (splitmix64).
struct random {
  std::uint64_t s;
  double operator()() {
    std::uint64_t z = (s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return static_cast<double>((z ^ (z >> 31)) >> 11) * 0x1p-53;
  }
};

template <class T>
constexpr ld big_v = static_cast<ld>(std::numeric_limits<T>::max());
template <class T>
constexpr ld tiny_v = static_cast<ld>(std::numeric_limits<T>::denorm_min());
template <class T>
constexpr ld least_normal_v = static_cast<ld>(std::numeric_limits<T>::min());
template <class T>
constexpr ld eps_v = static_cast<ld>(std::numeric_limits<T>::epsilon());

/// Values as T, each spelled value also with its sign flipped when `mirror` is set.
template <class T>
std::vector<T> edges(std::initializer_list<ld> v, bool mirror) {
  std::vector<T> out;
  for (ld x : v) {
    out.push_back(static_cast<T>(x));
    if (mirror) out.push_back(static_cast<T>(-x));
  }
  return out;
}

/// `n` values with magnitudes log-uniform in [lo, hi] (random signs when `mirror`).
template <class T>
void log_uniform(std::vector<T>& out, std::size_t n, ld lo, ld hi, bool mirror, std::uint64_t seed) {
  random r{seed};
  const ld a = std::log(lo), b = std::log(hi);
  for (std::size_t i = 0; i < n * sample_factor; ++i) {
    const T x = static_cast<T>(std::exp(a + (b - a) * static_cast<ld>(r())));
    out.push_back(mirror && r() < 0.5 ? -x : x);
  }
}

/// `n` values uniform in [lo, hi].
template <class T>
void uniform(std::vector<T>& out, std::size_t n, ld lo, ld hi, std::uint64_t seed) {
  random r{seed};
  for (std::size_t i = 0; i < n * sample_factor; ++i) out.push_back(static_cast<T>(lo + (hi - lo) * static_cast<ld>(r())));
}

template <class T>
std::vector<std::array<T, 1>> unary(const std::vector<T>& v) {
  std::vector<std::array<T, 1>> out;
  for (T x : v) out.push_back({x});
  return out;
}

/// Every pair of `a` and `b`, then `n` pairs of seeded samples from `draw`.
template <class T, class Draw>
std::vector<std::array<T, 2>> pairs(const std::vector<T>& a, const std::vector<T>& b, std::size_t n, Draw draw) {
  std::vector<std::array<T, 2>> out;
  for (T x : a)
    for (T y : b) out.push_back({x, y});
  random r{42};
  for (std::size_t i = 0; i < n * sample_factor; ++i) out.push_back(draw(r));
  return out;
}

// ---------------------------------------------------------------------------------------
// The ops as stateless callables, shared by every test below (one instantiation of each
// transform per op and precision).

constexpr auto f_sinh = [](auto x) { return calx::sinh(x); };
constexpr auto f_cosh = [](auto x) { return calx::cosh(x); };
constexpr auto f_asinh = [](auto x) { return calx::asinh(x); };
constexpr auto f_acosh = [](auto x) { return calx::acosh(x); };
constexpr auto f_atanh = [](auto x) { return calx::atanh(x); };
constexpr auto f_asin = [](auto x) { return calx::asin(x); };
constexpr auto f_acos = [](auto x) { return calx::acos(x); };
constexpr auto f_atan = [](auto x) { return calx::atan(x); };
constexpr auto f_exp2 = [](auto x) { return calx::exp2(x); };
constexpr auto f_log2 = [](auto x) { return calx::log2(x); };
constexpr auto f_log10 = [](auto x) { return calx::log10(x); };
constexpr auto f_cbrt = [](auto x) { return calx::cbrt(x); };
constexpr auto f_square = [](auto x) { return calx::square(x); };
constexpr auto f_reciprocal = [](auto x) { return calx::reciprocal(x); };
constexpr auto f_softplus = [](auto x) { return calx::softplus(x); };
constexpr auto f_hypot = [](auto x, auto y) { return calx::hypot(x, y); };
constexpr auto f_logaddexp = [](auto a, auto b) { return calx::logaddexp(a, b); };
constexpr auto f_clamp = [](auto x, auto lo, auto hi) { return calx::clamp(x, lo, hi); };
constexpr auto f_relu = [](auto x) { return calx::relu(x); };

// ---------------------------------------------------------------------------------------
// References (long double: 64-bit significand, 11 bits beyond double).

ld sinh_ref(const args_t<1>& x) { return std::sinh(x[0]); }
ld cosh_ref(const args_t<1>& x) { return std::cosh(x[0]); }
ld asinh_ref(const args_t<1>& x) { return std::asinh(x[0]); }
ld asinh_d(const args_t<1>& x) { return 1 / std::sqrt(1 + x[0] * x[0]); }
ld acosh_ref(const args_t<1>& x) { return std::acosh(x[0]); }
ld acosh_d(const args_t<1>& x) { return 1 / std::sqrt((x[0] - 1) * (x[0] + 1)); }
ld atanh_ref(const args_t<1>& x) { return std::atanh(x[0]); }
ld atanh_d(const args_t<1>& x) { return 1 / ((1 - x[0]) * (1 + x[0])); }
ld asin_ref(const args_t<1>& x) { return std::asin(x[0]); }
ld asin_d(const args_t<1>& x) { return 1 / std::sqrt((1 - x[0]) * (1 + x[0])); }
ld acos_ref(const args_t<1>& x) { return std::acos(x[0]); }
ld acos_d(const args_t<1>& x) { return -1 / std::sqrt((1 - x[0]) * (1 + x[0])); }
ld atan_ref(const args_t<1>& x) { return std::atan(x[0]); }
ld atan_d(const args_t<1>& x) { return 1 / (1 + x[0] * x[0]); }
ld exp2_ref(const args_t<1>& x) { return std::exp2(x[0]); }
ld exp2_d(const args_t<1>& x) { return std::exp2(x[0]) * ln2; }
ld log2_ref(const args_t<1>& x) { return std::log2(x[0]); }
ld log2_d(const args_t<1>& x) { return 1 / (x[0] * ln2); }
ld log10_ref(const args_t<1>& x) { return std::log10(x[0]); }
ld log10_d(const args_t<1>& x) { return 1 / (x[0] * ln10); }
ld cbrt_ref(const args_t<1>& x) { return std::cbrt(x[0]); }
ld cbrt_d(const args_t<1>& x) { return 1 / (3 * std::cbrt(x[0]) * std::cbrt(x[0])); }
ld square_ref(const args_t<1>& x) { return x[0] * x[0]; }
/// relu and JAX's derivative: 0 at 0 and for a NaN.
ld relu_ref(const args_t<1>& x) { return std::isnan(x[0]) ? x[0] : (x[0] > 0 ? x[0] : 0); }
ld relu_d(const args_t<1>& x) { return x[0] > 0 ? 1 : 0; }
ld square_d(const args_t<1>& x) { return 2 * x[0]; }
ld reciprocal_ref(const args_t<1>& x) { return 1 / x[0]; }
ld reciprocal_d(const args_t<1>& x) { return -1 / (x[0] * x[0]); }
ld softplus_ref(const args_t<1>& x) {
  return x[0] > 0 ? x[0] + std::log1p(std::exp(-x[0])) : std::log1p(std::exp(x[0]));
}
ld softplus_d(const args_t<1>& x) { return 1 / (1 + std::exp(-x[0])); }

ld hypot_ref(const args_t<2>& a) { return std::hypot(a[0], a[1]); }
ld hypot_dx(const args_t<2>& a) { return a[0] / std::hypot(a[0], a[1]); }
ld hypot_dy(const args_t<2>& a) { return a[1] / std::hypot(a[0], a[1]); }
ld logaddexp_ref(const args_t<2>& a) {
  if (std::isnan(a[0]) || std::isnan(a[1])) return nan;
  if (a[0] == a[1]) return a[0] + ln2;  // also ±inf for equal infinities
  return std::max(a[0], a[1]) + std::log1p(std::exp(-std::fabs(a[0] - a[1])));
}
ld logaddexp_da(const args_t<2>& a) { return 1 / (1 + std::exp(a[1] - a[0])); }
ld logaddexp_db(const args_t<2>& a) { return 1 / (1 + std::exp(a[0] - a[1])); }

/// clamp and its partials by max's and min's rules (1/2-1/2 at a tie).
ld clamp_ref(const args_t<3>& a) {
  if (std::isnan(a[0])) return nan;
  return std::min(std::max(a[0], a[1]), a[2]);
}
ld share(ld mine, ld other, bool larger) {  // d extremum(mine, other) / d mine
  if (mine == other) return 0.5;
  return (larger ? mine > other : mine < other) ? 1 : 0;
}
ld clamp_dx(const args_t<3>& a) {
  const ld t = std::max(a[0], a[1]);
  return share(t, a[2], false) * share(a[0], a[1], true);
}
ld clamp_dlo(const args_t<3>& a) {
  const ld t = std::max(a[0], a[1]);
  return share(t, a[2], false) * share(a[1], a[0], true);
}
ld clamp_dhi(const args_t<3>& a) { return share(a[2], std::max(a[0], a[1]), false); }

// ---------------------------------------------------------------------------------------
// The table.

/// Magnitudes where sinh and cosh overflow: ln(2 max) (710.48 in double, 89.42 in float).
template <class T>
const ld hyperbolic_limit = std::log(2 * big_v<T>);

const auto rows = std::make_tuple(
    // x real: |x| log-uniform over [1e-30, where sinh overflows], uniform on [-25, 25]; the branch at
    // |x| = 20, exp's and sinh's overflow points in float and double, ±inf, NaN.
    row<1>("sinh", f_sinh, sinh_ref, {cosh_ref},
           [](auto t) {
             using T = decltype(t);
             auto v = edges<T>({0, tiny_v<T>, least_normal_v<T>, 1e-20, 1e-8, 0.5, 1, 19.5, 20, 20.000001, 21, 88.7,
                                89.41, 89.5, 709.7, 710.47, 711, inf, nan},
                               true);
             log_uniform(v, 120, 1e-30, hyperbolic_limit<T>, true, 1);
             uniform(v, 60, -25, 25, 2);
             return unary(v);
           },
           // measured value 1.58/1.59, partial 1.58/1.59, simd 2/2
           {{4, 4}, {4, 4}, {4, 4}}),
    // As sinh, with the branch at |x| = 1 too.
    row<1>("cosh", f_cosh, cosh_ref, {sinh_ref},
           [](auto t) {
             using T = decltype(t);
             auto v = edges<T>({0, tiny_v<T>, least_normal_v<T>, 1e-20, 1e-8, 0.5, 0.999999, 1, 1.000001, 19.5, 20,
                                20.000001, 21, 88.7, 89.41, 89.5, 709.7, 710.47, 711, inf, nan},
                               true);
             log_uniform(v, 120, 1e-30, hyperbolic_limit<T>, true, 3);
             uniform(v, 60, -25, 25, 4);
             return unary(v);
           },
           // measured value 1.65/1.59, partial 2.7/2.6, simd 2/2
           {{4, 4}, {6, 6}, {4, 4}}),
    // x real: |x| log-uniform over [1e-30, max], uniform on [-10, 10]; the branch at |x| = 1e9.
    row<1>("asinh", f_asinh, asinh_ref, {asinh_d},
           [](auto t) {
             using T = decltype(t);
             auto v = edges<T>({0, tiny_v<T>, least_normal_v<T>, 1e-10, 0.5, 1, 1e8, 1e9, 1.0000001e9, 1e10, 1e30,
                                big_v<T>, inf, nan},
                               true);
             log_uniform(v, 120, 1e-30, big_v<T>, true, 5);
             uniform(v, 60, -10, 10, 6);
             return unary(v);
           },
           // measured value 1.43/1.31, partial 3.72/3.69, simd 1/1
           {{4, 4}, {8, 8}, {3, 3}}),
    // x >= 1: 1 + t with t log-uniform over [eps, 1e30], uniform on [1, 10]; the branch at
    // 1e9, max; below 1 (NaN).
    row<1>("acosh", f_acosh, acosh_ref, {acosh_d},
           [](auto t) {
             using T = decltype(t);
             auto v = edges<T>({1, 1 + eps_v<T>, 1 + 1e-10, 1.5, 2, 1e9, 1.0000001e9, 1e10, big_v<T>, inf, nan, 0.5, 0,
                                -1, -inf},
                               false);
             std::vector<T> t1;
             log_uniform(t1, 120, eps_v<T>, 1e30, false, 7);
             for (T u : t1) v.push_back(static_cast<T>(1 + static_cast<ld>(u)));
             uniform(v, 60, 1, 10, 8);
             return unary(v);
           },
           // measured value 2.79/2.85, partial 3.7/4.03, simd 1/1
           {{6, 6}, {8, 10}, {3, 3}}),
    // |x| <= 1: 1 - |x| log-uniform over [eps/2, 1] near both ends, uniform on [-1, 1]; ±1
    // (±inf, derivative inf); beyond (NaN).
    row<1>("atanh", f_atanh, atanh_ref, {atanh_d},
           [](auto t) {
             using T = decltype(t);
             auto v = edges<T>({0, tiny_v<T>, 1e-10, 0.5, 1 - eps_v<T> / 2, 1, 1.5, inf, nan}, true);
             std::vector<T> t1;
             log_uniform(t1, 100, eps_v<T> / 2, 1, true, 9);
             for (T u : t1) v.push_back(static_cast<T>(u < 0 ? -1 - static_cast<ld>(u) : 1 - static_cast<ld>(u)));
             uniform(v, 80, -1, 1, 10);
             return unary(v);
           },
           // measured value 1.34/1.29, partial 1.22/1.17, simd 2/2
           {{3, 3}, {3, 3}, {4, 4}}),
    // As atanh; asin'(±1) = inf.
    row<1>("asin", f_asin, asin_ref, {asin_d},
           [](auto t) {
             using T = decltype(t);
             auto v = edges<T>({0, tiny_v<T>, 1e-10, 0.5, 1 - eps_v<T> / 2, 1, 1.5, inf, nan}, true);
             std::vector<T> t1;
             log_uniform(t1, 100, eps_v<T> / 2, 1, true, 11);
             for (T u : t1) v.push_back(static_cast<T>(u < 0 ? -1 - static_cast<ld>(u) : 1 - static_cast<ld>(u)));
             uniform(v, 80, -1, 1, 12);
             return unary(v);
           },
           // measured value 2.82/2.05, partial 5.22/4.51, simd 2/2
           {{6, 6}, {12, 10}, {4, 4}}),
    // As atanh; acos'(±1) = -inf.
    row<1>("acos", f_acos, acos_ref, {acos_d},
           [](auto t) {
             using T = decltype(t);
             auto v = edges<T>({0, tiny_v<T>, 1e-10, 0.5, 1 - eps_v<T> / 2, 1, 1.5, inf, nan}, true);
             std::vector<T> t1;
             log_uniform(t1, 100, eps_v<T> / 2, 1, true, 13);
             for (T u : t1) v.push_back(static_cast<T>(u < 0 ? -1 - static_cast<ld>(u) : 1 - static_cast<ld>(u)));
             uniform(v, 80, -1, 1, 14);
             return unary(v);
           },
           // measured value 2.57/2.13, partial 4.85/4.55, simd 2/2
           {{6, 6}, {10, 10}, {4, 4}}),
    // x real: |x| log-uniform over [1e-30, 1e30], uniform on [-5, 5]; max, ±inf.
    row<1>("atan", f_atan, atan_ref, {atan_d},
           [](auto t) {
             using T = decltype(t);
             auto v = edges<T>({0, tiny_v<T>, 1e-10, 0.5, 1, 2, 1e10, big_v<T>, inf, nan}, true);
             log_uniform(v, 120, 1e-30, 1e30, true, 15);
             uniform(v, 60, -5, 5, 16);
             return unary(v);
           },
           // measured value 0.813/0.505, partial 1.88/1.93, simd 2/2
           {{2, 2}, {4, 4}, {4, 4}}),
    // x from below the subnormal results (-1084, -159 in float) to beyond overflow, uniform;
    // uniform on [-2, 2]; the subnormal and overflow edges xsimd gets wrong, ±inf.
    row<1>("exp2", f_exp2, exp2_ref, {exp2_d},
           [](auto t) {
             using T = decltype(t);
             constexpr ld hi = std::numeric_limits<T>::max_exponent;       // 1024, 128
             constexpr ld lo = std::numeric_limits<T>::min_exponent - 1;   // -1022, -126
             constexpr ld sub = lo - std::numeric_limits<T>::digits + 1;   // -1074, -149
             auto v = edges<T>({0, 0.5, 1, 10, hi - 1, hi - 0.5, hi - 0.01, hi, hi + 1, lo, lo - 0.5, sub, sub - 1,
                                sub - 10, inf, nan},
                               false);
             for (ld x : {0.5L, 1.0L, 10.0L, inf}) v.push_back(static_cast<T>(-x));
             uniform(v, 120, sub - 5, hi + 5, 17);
             uniform(v, 60, -2, 2, 18);
             return unary(v);
           },
           // measured value 0.501/0.506, partial 1.22/1.47, simd 1/1
           {{1, 1}, {3, 3}, {3, 3}}),
    // x > 0 log-uniform over all of T, subnormals included; powers of 2 and 10; 0, -0,
    // negative (NaN), inf.
    row<1>("log2", f_log2, log2_ref, {log2_d},
           [](auto t) {
             using T = decltype(t);
             auto v = edges<T>({0, tiny_v<T>, least_normal_v<T>, 0.5, 1, 2, 8, 10, 1000, 1e15, 1e22, big_v<T>, inf, nan,
                                -0.0L, -1, -inf},
                               false);
             log_uniform(v, 180, tiny_v<T>, big_v<T>, false, 19);
             return unary(v);
           },
           // measured value 0.57/0.5, partial 0.722/0.626, simd 1/1
           {{1, 1}, {2, 2}, {3, 3}}),
    // As log2.
    row<1>("log10", f_log10, log10_ref, {log10_d},
           [](auto t) {
             using T = decltype(t);
             auto v = edges<T>({0, tiny_v<T>, least_normal_v<T>, 0.5, 1, 2, 8, 10, 1000, 1e9, 1e15, 1e22, big_v<T>, inf,
                                nan, -0.0L, -1, -inf},
                               false);
             log_uniform(v, 180, tiny_v<T>, big_v<T>, false, 20);
             return unary(v);
           },
           // measured value 1.59/1.3, partial 0.89/0.727, simd 2/1
           {{4, 3}, {2, 2}, {4, 3}}),
    // x real, |x| log-uniform over all of T, subnormals included; cubes; ±0 (derivative inf).
    row<1>("cbrt", f_cbrt, cbrt_ref, {cbrt_d},
           [](auto t) {
             using T = decltype(t);
             auto v = edges<T>({0, tiny_v<T>, least_normal_v<T>, 1e-300, 1, 8, 27, 1e300, big_v<T>, inf, nan}, true);
             log_uniform(v, 180, tiny_v<T>, big_v<T>, true, 21);
             return unary(v);
           },
           // measured value 0.948/3.13, partial 3.69/9.6, simd 2/3
           {{2, 8}, {8, 24}, {4, 6}}),
    // x real, |x| log-uniform over all of T; where x² overflows.
    row<1>("square", f_square, square_ref, {square_d},
           [](auto t) {
             using T = decltype(t);
             auto v = edges<T>({0, tiny_v<T>, 1e-200, 1, 3, 1e19, 2e19, 1e154, 1.5e154, big_v<T>, inf, nan}, true);
             log_uniform(v, 160, tiny_v<T>, big_v<T>, true, 22);
             return unary(v);
           },
           // correctly rounded and exact: measured value 0.5/0.5, partial 0/0, simd 0/0
           {{0.5, 0.5}, {0, 0}, {0, 0}}),
    // x real, |x| log-uniform over all of T; ±0 (±inf), ±max (subnormal results).
    row<1>("reciprocal", f_reciprocal, reciprocal_ref, {reciprocal_d},
           [](auto t) {
             using T = decltype(t);
             auto v = edges<T>({0, tiny_v<T>, least_normal_v<T>, 1, 3, 1e30, big_v<T>, inf, nan}, true);
             log_uniform(v, 160, tiny_v<T>, big_v<T>, true, 23);
             return unary(v);
           },
           // measured value 0.5/0.5, partial 1.87/1.87, simd 0/0
           {{0.5, 0.5}, {4, 4}, {0, 0}}),
    // x uniform on [-60, 60], |x| log-uniform over [1e-10, 1e10]; the branch at 40, where exp
    // underflows (-745), max, ±inf.
    row<1>("softplus", f_softplus, softplus_ref, {softplus_d},
           [](auto t) {
             using T = decltype(t);
             auto v = edges<T>({0, 1e-10, 1, 20, 39.9, 40, 40.00001, 41, 100, 720, 745, 750, 1e10, big_v<T>, inf, nan},
                               true);
             uniform(v, 120, -60, 60, 24);
             log_uniform(v, 60, 1e-10, 1e10, true, 25);
             return unary(v);
           },
           // measured value 1.34/1.25, partial 2.31/2.17, simd 2/2
           {{4, 4}, {6, 6}, {4, 4}}),
    // All pairs of edge values (0, subnormals, 1e-40, 1e-31, 1e-30, 1, 1e30, max, ±inf, NaN,
    // both signs); pairs with binary exponents uniform over all of T.
    row<2>("hypot", f_hypot, hypot_ref, {hypot_dx, hypot_dy},
           [](auto t) {
             using T = decltype(t);
             const auto e =
                 edges<T>({0, tiny_v<T>, 1e-310, 1e-40, 1e-31, 0.75, 1, 1e-30, 1e30, big_v<T>, inf, nan}, true);
             return pairs<T>(e, e, 150, [](random& r) {
               // Binary exponents over all of T's range, the second one half the time within 10 of
               // the first (where neither term of x² + y² is negligible).
               constexpr double lo = std::numeric_limits<T>::min_exponent - std::numeric_limits<T>::digits;
               constexpr double hi = std::numeric_limits<T>::max_exponent;
               const double ex = lo + (hi - lo) * r();
               const double ey = r() < 0.5 ? ex + 20 * r() - 10 : lo + (hi - lo) * r();
               const T x = static_cast<T>(std::exp2(ex)), y = static_cast<T>(std::exp2(ey));
               return std::array<T, 2>{r() < 0.5 ? -x : x, r() < 0.5 ? -y : y};
             });
           },
           // measured value 1.91/1.85, partial 2.64/2.61, simd 0/0 (2 for an fma in 1 + q²)
           {{4, 4}, {6, 6}, {2, 2}}),
    // All pairs of edge values (0, ±1, ±ln 2, ±30, ±80, ±max, ±inf, NaN); pairs uniform on
    // [-50, 50]², a quarter of them within 1e-3 of a tie. Values in ulps of max(|y|, max(a, b))
    // (y = max + log1p(...) is rounded relative to its larger term, and cancels near a = b =
    // -ln 2); partials with |a - b| ulps of slack (the rounding of a - b is a relative error
    // |a - b| ulp of e^-|a-b|).
    row<2>("logaddexp", f_logaddexp, logaddexp_ref,
           {logaddexp_da, logaddexp_db},
           [](auto t) {
             using T = decltype(t);
             const auto e = edges<T>({0, 1, ln2, 30, 80, big_v<T>, inf, nan}, true);
             return pairs<T>(e, e, 160, [](random& r) {
               const T a = static_cast<T>(100 * r() - 50);
               // A quarter of the pairs within 1e-3 of each other, around the tie.
               const T b = static_cast<T>(r() < 0.25 ? a + 2e-3 * r() - 1e-3 : 100 * r() - 50);
               return std::array<T, 2>{a, b};
             });
           },
           // measured value 1.28/1.44, partial 1.75/2 beyond the slack, simd 2/1
           {{4, 4}, {5, 5}, {4, 4}},
           {.scale = [](const args_t<2>& a) { return std::max(a[0], a[1]); },
            .slack = [](const args_t<2>& a) { return static_cast<double>(std::fabs(a[0] - a[1])); }}),
    // x at, between and beyond bounds, ties with either bound, lo == hi, lo > hi (gives hi),
    // infinite bounds, NaN x; random triples with lo <= hi.
    row<3>("clamp", f_clamp, clamp_ref,
           {clamp_dx, clamp_dlo, clamp_dhi},
           [](auto t) {
             using T = decltype(t);
             std::vector<std::array<T, 3>> v;
             const T xs[] = {-3, -1, -0.5, 0, 0.5, 1, 3, T(inf), T(-inf), T(nan)};
             const T limits[][2] = {{-1, 1}, {0, 0.5}, {-1, -1}, {1, -1}, {T(-inf), T(inf)}};
             for (T x : xs)
               for (const auto& b : limits) v.push_back({x, b[0], b[1]});
             random r{26};
             for (std::size_t i = 0; i < 150 * sample_factor; ++i) {
               const T lo = static_cast<T>(4 * r() - 2);
               v.push_back({static_cast<T>(8 * r() - 4), lo, static_cast<T>(lo + 3 * r())});
             }
             return v;
           },
           // exact: measured 0 everywhere
           {{0, 0}, {0, 0}, {0, 0}}),
    // x uniform on [-3, 3], |x| log-uniform over all of T; ±0, the smallest numbers, ±inf, NaN.
    row<1>("relu", f_relu, relu_ref, {relu_d},
           [](auto t) {
             using T = decltype(t);
             auto v = edges<T>({0, tiny_v<T>, least_normal_v<T>, 1, big_v<T>, inf, nan}, true);
             uniform(v, 60, -3, 3, 27);
             log_uniform(v, 100, tiny_v<T>, big_v<T>, true, 28);
             return unary(v);
           },
           // exact: measured 0 everywhere
           {{0, 0}, {0, 0}, {0, 0}}));

// ---------------------------------------------------------------------------------------
// The checks.

template <class T, std::size_t N>
std::string call_text(const char* name, const std::array<T, N>& a) {
  std::string s = std::string(name) + "(";
  for (std::size_t i = 0; i < N; ++i) s += (i ? ", " : "") + text(a[i]);
  return s + ")";
}

template <class T, std::size_t N>
args_t<N> widen(const std::array<T, N>& a) {
  args_t<N> w{};
  for (std::size_t i = 0; i < N; ++i) w[i] = a[i];
  return w;
}

/// calx::grad of `fn` in every argument, as an array.
template <class T, std::size_t N, class Fn>
std::array<T, N> gradient(const Fn& fn, const std::array<T, N>& a) {
  if constexpr (N == 1) {
    return {calx::grad(fn)(a[0])};
  } else {
    return [&]<std::size_t... I>(std::index_sequence<I...>) {
      const auto g = calx::grad(fn, calx::argnums<static_cast<int>(I)...>)(a[I]...);
      return std::array<T, N>{std::get<I>(g)...};
    }(std::make_index_sequence<N>{});
  }
}

/// calx::jvp of `fn` with tangent e_i, for each argument i: the partials in forward mode.
template <class T, std::size_t N, class Fn>
std::array<T, N> forward_partials(const Fn& fn, const std::array<T, N>& a) {
  std::array<T, N> out{};
  for (std::size_t i = 0; i < N; ++i) {
    std::array<T, N> t{};
    t[i] = 1;
    out[i] = calx::jvp(fn, std::tuple_cat(a), std::tuple_cat(t)).second;
  }
  return out;
}

/// The worst error of a kind, and where.
template <class T, std::size_t N>
struct worst {
  double err = 0;
  std::array<T, N> at{};
  void add(double e, const std::array<T, N>& a) {
    if (e > err) err = e, at = a;
  }
};

template <class T, std::size_t N, class Fn, class Inputs>
void check_row(const op_row<N, Fn, Inputs>& r) {
  const std::vector<std::array<T, N>> inputs = r.inputs(T{});
  const auto program = [&]<std::size_t... I>(std::index_sequence<I...>) {
    return calx::trace(r.fn, ((void)I, T(1))...);
  }(std::make_index_sequence<N>{});
  worst<T, N> value, partial, simd;

  for (const auto& a : inputs) {
    const args_t<N> w = widen(a);
    const ld want = r.value(w);
    const T plain = std::apply(r.fn, a);
    const T traced = std::apply(program, a);
    INFO(call_text(r.name, a) << " = " << text(plain) << " (untransformed), " << text(traced)
                              << " (program); long double gives " << text(want));
    const ld scale = r.how.scale != nullptr ? r.how.scale(w) : 0;
    const double e = std::max(ulp_error(plain, want, scale), ulp_error(traced, want, scale));
    value.add(e, a);
    CHECK(e <= r.tol.value.template of<T>());

    // Partials where value and derivative are defined, and the value did not overflow T
    // (exp2(1024) is inf; its derivative would be 1.2e308).
    if (std::isnan(want) || (std::isfinite(want) && std::isinf(static_cast<T>(want)))) continue;
    const std::array<T, N> reverse = gradient(r.fn, a);
    const std::array<T, N> forward = forward_partials(r.fn, a);
    const double slack = r.how.slack != nullptr ? r.how.slack(w) : 0;
    for (std::size_t i = 0; i < N; ++i) {
      const ld d = r.partial[i](w);
      if (std::isnan(d)) continue;
      for (const T g : {reverse[i], forward[i]}) {
        // A derivative that is subnormal in T may come out as 0: the squares in atan2's
        // rule overflow first (atan at |x| > 1.8e19 in float, 1.3e154 in double).
        const bool flushed = g == 0 && std::fabs(d) < least_normal_v<T>;
        const double de = flushed ? 0 : ulp_error(g, d);
        INFO("partial " << i << ": " << text(reverse[i]) << " (grad), " << text(forward[i])
                        << " (jvp); long double gives " << text(d));
        partial.add(de - slack, a);
        CHECK(de <= r.tol.partial.template of<T>() + slack);
      }
    }
  }

  // vmap: the same inputs as columns, one sample per lane of the SIMD loop.
  std::array<std::vector<T>, N> columns;
  for (const auto& a : inputs)
    for (std::size_t i = 0; i < N; ++i) columns[i].push_back(a[i]);
  const auto lanes = std::apply([&](const auto&... c) { return calx::vmap(r.fn)(c...); }, columns);
  for (std::size_t k = 0; k < inputs.size(); ++k) {
    const T scalar = std::apply(program, inputs[k]);
    const T batched = lanes[k];
    INFO("vmap: " << call_text(r.name, inputs[k]) << " = " << text(batched) << ", the scalar program gives "
                  << text(scalar));
    // xsimd's exp gives 0 where the result is subnormal (below e^-708.4, e^-88.4 in float).
    const bool flushed = batched == 0 && std::fabs(scalar) < std::numeric_limits<T>::min();
    const bool ok = flushed || within_ulps(batched, scalar, static_cast<std::uint64_t>(r.tol.simd.template of<T>()));
    const bool exact = std::isnan(scalar) || std::isinf(scalar) || flushed;
    simd.add(!ok ? HUGE_VAL : exact ? 0 : static_cast<double>(calx_test::ulp_distance(batched, scalar)), inputs[k]);
    CHECK(ok);
  }

  if (measuring)
    std::printf("%-10s %-6s value %8.3g at %-40s partial %8.3g at %-40s simd %8.3g at %s\n", r.name,
                sizeof(T) == 4 ? "float" : "double", value.err, call_text("", value.at).c_str(), partial.err,
                call_text("", partial.at).c_str(), simd.err, call_text("", simd.at).c_str());
}

/// Rows [Part * n / Parts, (Part + 1) * n / Parts) of the n rows, in T (the rows are
/// split over TUs for the compile budget).
template <class T, std::size_t Part, std::size_t Parts>
void check_rows() {
  constexpr std::size_t n = std::tuple_size_v<std::remove_cvref_t<decltype(rows)>>;
  constexpr std::size_t first = Part * n / Parts, last = (Part + 1) * n / Parts;
  [&]<std::size_t... K>(std::index_sequence<K...>) {
    (check_row<T>(std::get<first + K>(rows)), ...);
  }(std::make_index_sequence<last - first>{});
}

}  // namespace

#if CALX_TEST_PART == 0  // CALX_TEST_ROWS: which half of the rows (0 or 1)
TEMPLATE_TEST_CASE("decomposed and power ops: values, partials and vmap against long double", "[ops][decomposed]", CALX_TEST_REALS) {
  check_rows<TestType, CALX_TEST_ROWS, 2>();
}
#endif

#if CALX_TEST_PART == 1
TEST_CASE("each op is one IR node; exp2, log2, log10 and cbrt have kernels, the rest decompositions",
          "[ops][decomposed][ir]") {
  const auto sinh = f_sinh;
  CHECK(calx::to_string(calx::trace(sinh, 1.0)) == "{ lambda a:f64 . let\n    b:f64 = sinh a\n  in (b) }");

  const auto one_node = []<class Op>(const auto& f, auto... x) {
    const auto p = calx::trace(f, x...);
    INFO(calx::to_string(p));
    CHECK(calx_test::count_op<Op>(p.ir) == 1);
    CHECK(calx_test::count_operations(p.ir) == 1);
  };
  one_node.operator()<calx::cosh_op>(f_cosh, 1.0);
  one_node.operator()<calx::asinh_op>(f_asinh, 1.0);
  one_node.operator()<calx::acosh_op>(f_acosh, 1.0);
  one_node.operator()<calx::atanh_op>(f_atanh, 1.0);
  one_node.operator()<calx::asin_op>(f_asin, 1.0);
  one_node.operator()<calx::acos_op>(f_acos, 1.0);
  one_node.operator()<calx::atan_op>(f_atan, 1.0);
  one_node.operator()<calx::exp2_op>(f_exp2, 1.0);
  one_node.operator()<calx::log2_op>(f_log2, 1.0);
  one_node.operator()<calx::log10_op>(f_log10, 1.0);
  one_node.operator()<calx::cbrt_op>(f_cbrt, 1.0);
  one_node.operator()<calx::square_op>(f_square, 1.0);
  one_node.operator()<calx::reciprocal_op>(f_reciprocal, 1.0);
  one_node.operator()<calx::softplus_op>(f_softplus, 1.0);
  one_node.operator()<calx::hypot_op>(f_hypot, 1.0, 1.0);
  one_node.operator()<calx::logaddexp_op>([](auto x, auto y) { return calx::logaddexp(x, y); }, 1.0, 1.0);
  one_node.operator()<calx::clamp_op>(f_clamp, 1.0, 0.0,
                                      2.0);
  one_node.operator()<calx::relu_op>(f_relu, 1.0);

  using calx::detail::batch_kernel;
  using calx::detail::describe;
  using calx::detail::rule_source;
  // Kernels: built-ins that SIMD loops call by type, with rules of their own.
  STATIC_REQUIRE(calx::detail::builtin_code_v<calx::exp2_op> >= 0);
  STATIC_REQUIRE(calx::detail::builtin_code_v<calx::log2_op> >= 0);
  STATIC_REQUIRE(calx::detail::builtin_code_v<calx::log10_op> >= 0);
  STATIC_REQUIRE(calx::detail::builtin_code_v<calx::cbrt_op> >= 0);
  STATIC_REQUIRE(calx::has_scalar_kernel<calx::cbrt_op>);
  // Decompositions: no kernel, lowered in SIMD loops; rules from the decomposition (hypot's
  // are its own).
  STATIC_REQUIRE(calx::detail::builtin_code_v<calx::sinh_op> < 0);
  STATIC_REQUIRE(!calx::has_scalar_kernel<calx::sinh_op>);
  STATIC_REQUIRE(describe<calx::sinh_op>().batch_from == batch_kernel::decomposition);
  STATIC_REQUIRE(describe<calx::logaddexp_op>().vjp_from == rule_source::decomposition);
  STATIC_REQUIRE(describe<calx::clamp_op>().jvp_from == rule_source::decomposition);
  STATIC_REQUIRE(describe<calx::hypot_op>().vjp_from == rule_source::own);
  // sinh and cosh: decompositions for the value, rules of their own (d sinh = cosh).
  STATIC_REQUIRE(describe<calx::sinh_op>().jvp_from == rule_source::own);
  STATIC_REQUIRE(describe<calx::cosh_op>().vjp_from == rule_source::own);
  STATIC_REQUIRE(describe<calx::cosh_op>().batch_from == batch_kernel::decomposition);
  STATIC_REQUIRE(describe<calx::relu_op>().vjp_from == rule_source::own);
  STATIC_REQUIRE(describe<calx::hypot_op>().batch_from == batch_kernel::decomposition);
}
#endif

namespace {

/// `f(x)` on plain numbers, through its traced program and on the SIMD loop.
template <class T, class F>
std::array<T, 3> three_ways(const F& f, T x) {
  const std::vector<T> column{x};
  return {static_cast<T>(f(x)), calx::trace(f, T(1))(x), calx::vmap(f)(column)[0]};
}

}  // namespace

// The sign of a zero is checked on the scalar paths only, as in ops_values_cases.hpp: xsimd's
// expm1 and log1p give +0 for -0, so sinh and atanh do too on the SIMD loop.
#if CALX_TEST_PART == 1
TEMPLATE_TEST_CASE("signed zeros", "[ops][decomposed][edges]", CALX_TEST_REALS) {
  using T = TestType;
  const T z = 0, nz = -0.0;
  const auto check = [](const char* name, const std::array<T, 3>& r, T want) {
    INFO(name << ": " << text(r[0]) << " (untransformed), " << text(r[1]) << " (program), " << text(r[2])
              << " (vmap); want " << text(want));
    CHECK(calx_test::same_value(r[0], want));
    CHECK(calx_test::same_value(r[1], want));
    CHECK(calx_test::same_value(r[2], want, false));
  };
  const auto odd = std::make_tuple(
      std::pair{"sinh", f_sinh}, std::pair{"asinh", f_asinh},
      std::pair{"atanh", f_atanh}, std::pair{"asin", f_asin},
      std::pair{"atan", f_atan}, std::pair{"cbrt", f_cbrt});
  std::apply(
      [&](const auto&... f) {
        ((check(f.first, three_ways(f.second, nz), nz), check(f.first, three_ways(f.second, z), z)), ...);
      },
      odd);
  check("acos(1)", three_ways(f_acos, T(1)), z);
  check("square(-0)", three_ways(f_square, nz), z);
  check("reciprocal(-0)", three_ways(f_reciprocal, nz),
        -std::numeric_limits<T>::infinity());
}
#endif

#if CALX_TEST_PART == 1
TEMPLATE_TEST_CASE("conventions: hypot at the origin and at infinities, logaddexp of equal infinities and at a tie, relu at 0",
                   "[ops][decomposed][edges]", CALX_TEST_REALS) {
  using T = TestType;
  constexpr T infinity = std::numeric_limits<T>::infinity(), not_a_number = std::numeric_limits<T>::quiet_NaN();
  const auto hypot = f_hypot;
  const auto logaddexp = f_logaddexp;
  const auto both = calx::argnums<0, 1>;

  // hypot: JAX's 1/2 to each argument at the origin (either sign of zero), C's inf beside NaN.
  CHECK(calx::grad(hypot, both)(T(0), T(0)) == std::tuple{T(0.5), T(0.5)});
  CHECK(calx::grad(hypot, both)(T(-0.0), T(0)) == std::tuple{T(0.5), T(0.5)});
  CHECK(calx::jvp(hypot, std::tuple{T(0), T(0)}, std::tuple{T(1), T(0)}).second == T(0.5));
  CHECK(hypot(infinity, not_a_number) == infinity);
  CHECK(calx::trace(hypot, T(1), T(1))(not_a_number, -infinity) == infinity);
  CHECK(calx::grad(hypot, both)(infinity, T(1)) == std::tuple{T(0), T(0)});
  CHECK(std::isnan(hypot(not_a_number, T(1))));

  // logaddexp: equal infinities give that infinity with gradient (1/2, 1/2), like a tie.
  for (const T v : {-infinity, infinity}) {
    const std::vector<T> column{v};
    for (const T r : {static_cast<T>(logaddexp(v, v)), calx::trace(logaddexp, T(1), T(1))(v, v),
                      calx::vmap(logaddexp)(column, column)[0]})
      CHECK(r == v);
    CHECK(calx::grad(logaddexp, both)(v, v) == std::tuple{T(0.5), T(0.5)});
    CHECK(calx::jvp(logaddexp, std::tuple{v, v}, std::tuple{T(1), T(0)}).second == T(0.5));
  }
  CHECK(calx::grad(logaddexp, both)(T(2), T(2)) == std::tuple{T(0.5), T(0.5)});
  CHECK(calx::grad(logaddexp, both)(infinity, -infinity) == std::tuple{T(1), T(0)});
  CHECK(calx::grad(logaddexp, both)(-infinity, T(3)) == std::tuple{T(0), T(1)});
  CHECK(std::isnan(logaddexp(not_a_number, -infinity)));

  // relu: JAX's derivative, 0 at 0 (either sign) and for a NaN; NaN through, 0 for -inf.
  const std::vector<T> points{T(0), T(-0.0), not_a_number, -infinity, T(2)};
  const auto values = calx::vmap(f_relu)(points);
  const auto slopes = calx::vmap(calx::grad(f_relu))(points);
  for (std::size_t i = 0; i < points.size(); ++i) {
    INFO("x = " << points[i]);
    const T want = points[i] > T(0) ? T(1) : T(0);
    CHECK(calx::grad(f_relu)(points[i]) == want);
    CHECK(slopes[i] == want);
    CHECK(calx::jvp(f_relu, std::tuple{points[i]}, std::tuple{T(1)}).second == want);
  }
  CHECK(std::isnan(values[2]));
  CHECK(values[3] == T(0));
  CHECK(calx::hessian(f_relu)(T(2)) == T(0));
  CHECK(std::isnan(calx::trace(logaddexp, T(1), T(1))(infinity, not_a_number)));
}
#endif

#if CALX_TEST_PART == 2
TEST_CASE("second derivatives of decompositions and of rules", "[ops][decomposed][higher]") {
  // f'' is the derivative of f's gradient program, which may cancel down to the rounding of
  // the first derivative's terms: softplus'' = s - s² (s = sigmoid) for large x, hypot'' =
  // 1/r - x²/r³ for |x| >> |y|. So each is checked within 4 ulp of max(|f''|, |f'|); sinh
  // and cosh, whose rules are their own, within 4 ulp of |f''| itself.
  const auto d2 = [](auto f) { return calx::grad(calx::grad(f)); };
  const auto near = [](double got, long double want, long double first) {
    INFO("f'' = " << text(got) << ", want " << text(want));
    CHECK(std::fabs(got - want) <= 4 * 0x1p-53L * std::max(std::fabs(want), std::fabs(first)));
  };
  for (const double x : {-30.0, -1.5, 0.0, 1e-8, 0.7, 25.0}) {
    INFO("x = " << x);
    const long double X = x, e = std::exp(-std::fabs(X)), s = 1 / (1 + std::exp(-X)), r = std::hypot(X, 1.0L);
    near(d2([](auto v) { return calx::softplus(v); })(x), e / ((1 + e) * (1 + e)), s);
    near(d2([](auto v) { return calx::hypot(v, 1.0); })(x), 1 / (r * r * r), X / r);
    if (x > 0) near(d2([](auto v) { return calx::log2(v); })(x), -1 / (X * X * ln2), 1 / (X * ln2));
    // With their own rules, sinh'' = sinh and cosh'' = cosh keep their relative accuracy
    // (the derivative of sinh's decomposition cancelled near 0: 1e-8 had 0.3 ulp of cosh).
    near(d2([](auto v) { return calx::sinh(v); })(x), std::sinh(X), std::sinh(X));
    near(d2([](auto v) { return calx::cosh(v); })(x), std::cosh(X), std::cosh(X));
  }
  // grad(cosh) is one sinh node, not the derivative of cosh's three ranges.
  const auto program = calx::to_string(calx::trace(calx::grad([](auto v) { return calx::cosh(v); }), 1.0));
  CHECK(program == "{ lambda a:f64 . let\n    b:f64 = sinh a\n  in (b) }");
}
#endif

#endif  // CALX_TESTS_OPS_DECOMPOSED_CASES_HPP
