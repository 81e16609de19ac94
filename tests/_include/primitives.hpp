/// @file tests/_include/primitives.hpp
/// @brief The table of calx's primitives for test suites: one row per op, with the calx
/// function to test, a reference written with <cmath>, edge inputs and a smooth domain.
/// Suites iterate over the table (`for_each_primitive`), so adding an op is adding a row.
///
/// A row's `fn` is a stateless callable that can be traced (`calx::trace(row.fn, T{}...)`)
/// and called untransformed on float or double. `ref` computes the same value with <cmath>
/// in the same precision and the same order of operations as calx's scalar kernel, so
/// scalar results must match it exactly. `domain` is a finite box where the op is smooth
/// (for sweeps and for derivative laws); edge inputs (zeros, infinities, NaN, huge values)
/// come from `edge_inputs`.
#ifndef CALX_TESTS_PRIMITIVES_HPP
#define CALX_TESTS_PRIMITIVES_HPP

#include <calx/calx.hpp>

#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <tuple>
#include <utility>
#include <vector>

namespace calx_test {

/// A closed interval of inputs.
struct interval {
  double lo, hi;
};

/// Allowed distance, in units in the last place, between a SIMD lane and the reference.
/// Scalar paths are always exact (they call the same <cmath> function).
struct ulps {
  std::uint64_t f32 = 0, f64 = 0;
  template <class T>
  constexpr std::uint64_t of() const {
    return sizeof(T) == 4 ? f32 : f64;
  }
};

/// One primitive: see the file comment. `Tol` is `ulps`, or a callable giving the allowed
/// ulps for given operands, for an op whose error grows with its operands.
template <std::size_t Arity, class Fn, class Ref, class Tol = ulps>
struct primitive {
  static constexpr std::size_t arity = Arity;
  const char* name;
  Fn fn;
  Ref ref;
  std::array<interval, Arity> domain;
  Tol simd;                  // tolerance of xsimd's kernel against <cmath>
  bool signed_zero = true;   // whether the sign of a zero result is part of the contract
};

template <std::size_t Arity, class Fn, class Ref, class Tol = ulps>
constexpr auto make_primitive(const char* name, Fn fn, Ref ref, std::array<interval, Arity> domain, Tol simd = {},
                              bool signed_zero = true) {
  return primitive<Arity, Fn, Ref, Tol>{name, fn, ref, domain, simd, signed_zero};
}

template <class Fn, class Ref, class Tol = ulps>
constexpr auto unary(const char* name, Fn fn, Ref ref, interval d, Tol simd = {}) {
  return make_primitive<1>(name, fn, ref, {d}, simd);
}
template <class Fn, class Ref, class Tol = ulps>
constexpr auto binary(const char* name, Fn fn, Ref ref, interval a, interval b, Tol simd = {},
                      bool signed_zero = true) {
  return make_primitive<2>(name, fn, ref, {a, b}, simd, signed_zero);
}

/// The ulps a SIMD lane of `row` may be from the reference at `args`.
template <class T, class Row, std::size_t K>
std::uint64_t allowed_ulps(const Row& row, const std::array<T, K>& args) {
  if constexpr (requires { row.simd.template of<T>(); })
    return row.simd.template of<T>();
  else
    return std::apply(row.simd, args);
}

namespace ref {
// References that are more than one <cmath> call, spelled as calx's kernels compute them.
inline constexpr auto sign = [](auto x) {
  using T = decltype(x);
  return x > T(0) ? T(1) : x < T(0) ? T(-1) : x;  // sign(±0) = ±0, sign(NaN) = NaN
};
// JAX's min and max: NaN if either operand is NaN.
inline constexpr auto min = [](auto a, auto b) {
  return std::isnan(a) || std::isnan(b) ? std::numeric_limits<decltype(a)>::quiet_NaN() : (b < a ? b : a);
};
inline constexpr auto max = [](auto a, auto b) {
  return std::isnan(a) || std::isnan(b) ? std::numeric_limits<decltype(a)>::quiet_NaN() : (a < b ? b : a);
};
inline constexpr auto indicator = [](bool c, auto like) { return c ? decltype(like)(1) : decltype(like)(0); };
}  // namespace ref

// Tolerances on SIMD lanes: xsimd 8.1's kernels against glibc's libm, both in the same
// precision, in ulps (`ulps{float, double}`). Arithmetic, sqrt, comparisons and selection
// are correctly rounded in both, so they must agree exactly (0). For the elementary
// functions, glibc is within 1 ulp of the true value and so is xsimd (it ports Boost.SIMD's
// Cephes-derived kernels), so they may differ by 2; a function that xsimd builds from two
// such steps (tan = sin/cos, tanh and sigmoid from exp, atan2 from atan of a quotient) gets
// 4. Bounds were set from the largest difference measured on 100000 points of each
// domain and on the edge inputs, with SSE2, AVX2+FMA and AVX-512 builds (noted per row as
// "measured"), rounded up to leave a margin. Three rows are wider, for the reason given.
inline constexpr interval wide{-10, 10};

/// Every primitive, one row each.
inline constexpr auto primitives = std::make_tuple(
    binary("add", [](auto a, auto b) { return a + b; }, [](auto a, auto b) { return a + b; }, wide, wide),
    binary("sub", [](auto a, auto b) { return a - b; }, [](auto a, auto b) { return a - b; }, wide, wide),
    binary("mul", [](auto a, auto b) { return a * b; }, [](auto a, auto b) { return a * b; }, wide, wide),
    binary("div", [](auto a, auto b) { return a / b; }, [](auto a, auto b) { return a / b; }, wide, {0.25, 8}),
    unary("neg", [](auto a) { return -a; }, [](auto a) { return -a; }, wide),
    // xsimd computes pow as exp(p * log|x|): the rounding errors of log|x| and of the
    // product are relative errors of the exponent, so the result is off by up to about
    // 2 |p log x| + 1 ulp (measured 13 float, 15 double on the domain, where that is 19;
    // 64 at pow(1e30, 3), where it is 415). Non-finite p log x leaves only exact cases.
    binary("pow", calx::pow, [](auto x, auto p) { return std::pow(x, p); }, {0.1, 10}, {-4, 4},
           [](auto x, auto p) -> std::uint64_t {
             const double e = std::fabs(static_cast<double>(p) * std::log(std::fabs(static_cast<double>(x))));
             return std::isfinite(e) ? static_cast<std::uint64_t>(2 * e) + 8 : 0;
           }),
    unary("exp", calx::exp, [](auto x) { return std::exp(x); }, wide, {2, 2}),  // measured 1
    unary("log", calx::log, [](auto x) { return std::log(x); }, {0.01, 100}, {2, 2}),  // measured 1
    unary("log1p", calx::log1p, [](auto x) { return std::log1p(x); }, {-0.9, 10}, {2, 2}),  // measured 1
    unary("expm1", calx::expm1, [](auto x) { return std::expm1(x); }, {-5, 5}, {2, 2}),  // measured 1
    unary("sqrt", calx::sqrt, [](auto x) { return std::sqrt(x); }, {0.01, 100}),
    unary("rsqrt", calx::rsqrt, [](auto x) { return decltype(x)(1) / std::sqrt(x); }, {0.01, 100}),
    unary("sin", calx::sin, [](auto x) { return std::sin(x); }, wide, {2, 2}),  // measured 1, also at 1e30
    unary("cos", calx::cos, [](auto x) { return std::cos(x); }, wide, {2, 2}),  // measured 1
    unary("tan", calx::tan, [](auto x) { return std::tan(x); }, {-1.5, 1.5}, {4, 4}),  // measured 2
    unary("tanh", calx::tanh, [](auto x) { return std::tanh(x); }, {-5, 5}, {4, 4}),  // measured 2
    unary("sigmoid", calx::sigmoid,
          [](auto x) {
            using T = decltype(x);
            return T(1) / (T(1) + std::exp(-x));
          },
          wide, {4, 4}),  // measured 2
    unary("abs", calx::abs, [](auto x) { return std::fabs(x); }, wide),
    unary("sign", calx::sign, ref::sign, wide),
    // xsimd's erf and erfc are rational approximations fitted to a fixed accuracy rather than
    // to the last bit: erf measured 2 ulp (float) and 68 ulp (double, near x = 2.2); erfc
    // measured 45 ulp (float, x > 6) and 34532 ulp over the domain, 252399 ulp at x = 10
    // (double: a relative error of 3e-11, a weakness of xsimd 8.1, far above libm's 1 ulp).
    unary("erf", calx::erf, [](auto x) { return std::erf(x); }, {-4, 4}, {4, 128}),
    unary("erfc", calx::erfc, [](auto x) { return std::erfc(x); }, {-4, 8},
          {64, std::uint64_t{1} << 19}),
    binary("atan2", calx::atan2, [](auto a, auto b) { return std::atan2(a, b); }, wide, wide,
           {4, 4}),  // measured 2
    // Which zero min(-0, +0) returns is not part of the contract (IEEE 754-2008 minNum
    // leaves it open), so zero signs are not compared for min and max.
    binary("min", calx::min, ref::min, wide, wide, {}, false),
    binary("max", calx::max, ref::max, wide, wide, {}, false),
    binary("lt", [](auto a, auto b) { return calx::where(a < b, 1.0, 0.0); },
           [](auto a, auto b) { return ref::indicator(a < b, a); }, {-3, 3}, {-3, 3}),
    binary("le", [](auto a, auto b) { return calx::where(a <= b, 1.0, 0.0); },
           [](auto a, auto b) { return ref::indicator(a <= b, a); }, {-3, 3}, {-3, 3}),
    binary("gt", [](auto a, auto b) { return calx::where(a > b, 1.0, 0.0); },
           [](auto a, auto b) { return ref::indicator(a > b, a); }, {-3, 3}, {-3, 3}),
    binary("ge", [](auto a, auto b) { return calx::where(a >= b, 1.0, 0.0); },
           [](auto a, auto b) { return ref::indicator(a >= b, a); }, {-3, 3}, {-3, 3}),
    binary("eq", [](auto a, auto b) { return calx::where(a == b, 1.0, 0.0); },
           [](auto a, auto b) { return ref::indicator(a == b, a); }, {-3, 3}, {-3, 3}),
    binary("ne", [](auto a, auto b) { return calx::where(a != b, 1.0, 0.0); },
           [](auto a, auto b) { return ref::indicator(a != b, a); }, {-3, 3}, {-3, 3}),
    make_primitive<3>(
        "where", [](auto c, auto a, auto b) { return calx::where(c > 0.0, a, b); },
        [](auto c, auto a, auto b) { return c > 0 ? a : b; }, {interval{-1, 1}, wide, wide}),
    unary("stop_gradient", calx::stop_gradient, [](auto x) { return x; }, wide));

inline constexpr std::size_t primitive_count = std::tuple_size_v<std::remove_cvref_t<decltype(primitives)>>;

/// Calls `f(row)` for every row of the table, in order.
template <class F>
void for_each_primitive(F&& f) {
  std::apply([&](const auto&... row) { (f(row), ...); }, primitives);
}

/// Inputs that mean something for every op: signed zeros, small and large magnitudes,
/// values where exp over- or underflows, subnormals, infinities and NaN.
template <class T>
std::vector<T> edge_values() {
  using lim = std::numeric_limits<T>;
  std::vector<T> v{T(0), -T(0), T(0.5), T(-0.5), T(1), T(-1), T(2), T(-3), T(10), T(-10), T(80), T(-80),
                   T(1e30), T(-1e30), T(1e-30), lim::denorm_min(), -lim::denorm_min(),
                   lim::infinity(), -lim::infinity(), lim::quiet_NaN()};
  if constexpr (sizeof(T) == 8) {
    for (T x : {700.0, -700.0, 710.0, -750.0, 1e308, -1e308, 1e-300}) v.push_back(x);
  } else {
    for (T x : {89.0f, -104.0f, lim::max(), -lim::max()}) v.push_back(x);
  }
  return v;
}

/// Edge inputs of an op of `Arity` operands: each edge value for unary ops; for more
/// operands, every combination of a smaller set (both signed zeros, ±1, a fraction, a
/// non-integer negative, ±1e30, ±inf and NaN).
template <class T, std::size_t Arity>
std::vector<std::array<T, Arity>> edge_inputs() {
  using lim = std::numeric_limits<T>;
  std::vector<std::array<T, Arity>> out;
  if constexpr (Arity == 1) {
    for (T x : edge_values<T>()) out.push_back({x});
  } else {
    const std::vector<T> few = Arity == 2
        ? std::vector<T>{T(0), -T(0), T(1), T(-1), T(0.5), T(-2.5), T(3), T(1e30), T(-1e30),
                         lim::infinity(), -lim::infinity(), lim::quiet_NaN()}
        : std::vector<T>{T(-1), T(0), -T(0), T(2), lim::infinity(), -lim::infinity(), lim::quiet_NaN()};
    std::array<std::size_t, Arity> k{};
    for (;;) {
      std::array<T, Arity> a;
      for (std::size_t i = 0; i < Arity; ++i) a[i] = few[k[i]];
      out.push_back(a);
      std::size_t i = 0;
      while (i < Arity && ++k[i] == few.size()) k[i++] = 0;
      if (i == Arity) break;
    }
  }
  return out;
}

/// `n` points spread over the row's domain, each operand on its own low-discrepancy
/// sequence (so the operands of one point are unrelated and no two points repeat).
template <class T, class Row>
std::vector<std::array<T, Row::arity>> sweep_inputs(const Row& row, std::size_t n = 61) {
  constexpr double step[3] = {0.7548776662466927, 0.5698402909980532, 0.6180339887498949};
  std::vector<std::array<T, Row::arity>> out(n);
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < Row::arity; ++j) {
      const double u = std::fmod(0.5 + static_cast<double>(i) * step[j], 1.0);
      out[i][j] = static_cast<T>(row.domain[j].lo + (row.domain[j].hi - row.domain[j].lo) * u);
    }
  return out;
}

/// Edge inputs followed by a sweep of the domain.
template <class T, class Row>
std::vector<std::array<T, Row::arity>> all_inputs(const Row& row) {
  std::vector<std::array<T, Row::arity>> v = edge_inputs<T, Row::arity>();
  for (const auto& a : sweep_inputs<T>(row)) v.push_back(a);
  return v;
}

/// The reference value of `row` at `args`, in precision T.
template <class T, class Row>
T reference(const Row& row, const std::array<T, Row::arity>& args) {
  return static_cast<T>(std::apply(row.ref, args));
}

/// The program of `row.fn` traced for `Row::arity` scalar arguments of type T.
template <class T, class Row>
constexpr auto trace_row(const Row& row) {
  return [&]<std::size_t... I>(std::index_sequence<I...>) {
    return calx::trace(row.fn, (static_cast<void>(I), T{})...);
  }(std::make_index_sequence<Row::arity>{});
}

}  // namespace calx_test

#endif // CALX_TESTS_PRIMITIVES_HPP
