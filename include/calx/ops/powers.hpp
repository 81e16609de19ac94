/// @file ops/powers.hpp
/// @brief exp2, log2, log10 and cbrt (kernels of their own), and hypot, square and
/// reciprocal (decompositions; hypot with derivative rules of its own).
///
/// exp2, log2, log10 and cbrt are kernels because their decompositions are measurably
/// worse (long double reference, 200000 points each, glibc scalar kernels):
/// - exp2 as exp(x ln 2): the rounding of x ln 2 is a relative error of the result times
///   |x ln 2|: 714 ulp (double, x near 994), 67 ulp (float, x near -105); std::exp2 0.5.
///   pow(2, x) is exact on scalars but xsimd's pow is exp(p log x), as bad on batches;
/// - log2 as log(x) / ln 2: 1.2 ulp (double), 1.5 ulp (float), and inexact at 364 powers
///   of two in double (log2(8) = 2.9999999999999996); std::log2 0.5 and exact;
/// - log10 as log(x) / ln 10: 1.6 ulp (double), 1.7 (float), and log10(1e15) =
///   14.999999999999998 (log10(1e9f) = 9.0000010f); std::log10 is exact at powers of ten;
/// - cbrt as sign(x) |x|^(1/3): the rounding of 1/3 is a relative error of the result times
///   |log x|: 118 ulp (double, x near 1e307), 15 ulp (float); std::cbrt 3.2 and 0.9.
#ifndef CALX_OPS_POWERS_HPP
#define CALX_OPS_POWERS_HPP

#include <calx/config.hpp>
#include <calx/detail/ops/scalar_math.hpp>
#include <calx/math.hpp>
#include <calx/op_traits.hpp>
#include <calx/ops/arithmetic.hpp>
#include <calx/ops/exponential.hpp>
#include <calx/ops/selection.hpp>
#include <calx/tracer.hpp>

#include <array>
#include <cmath>
#include <limits>
#include <type_traits>

CALX_BEGIN_NAMESPACE

namespace detail {
namespace scalar {
// Written out as scalar_math.hpp's macros write the others (libm's float and double
// functions on the host, CUDA's on the device).
#ifdef __CUDA_ARCH__
CALX_HOST_DEVICE inline float exp2(float x) { return ::exp2f(x); }
CALX_HOST_DEVICE inline double exp2(double x) { return ::exp2(x); }
CALX_HOST_DEVICE inline float log2(float x) { return ::log2f(x); }
CALX_HOST_DEVICE inline double log2(double x) { return ::log2(x); }
CALX_HOST_DEVICE inline float log10(float x) { return ::log10f(x); }
CALX_HOST_DEVICE inline double log10(double x) { return ::log10(x); }
CALX_HOST_DEVICE inline float cbrt(float x) { return ::cbrtf(x); }
CALX_HOST_DEVICE inline double cbrt(double x) { return ::cbrt(x); }
#else
CALX_HOST_DEVICE inline float exp2(float x) { return std::exp2(x); }
CALX_HOST_DEVICE inline double exp2(double x) { return std::exp2(x); }
CALX_HOST_DEVICE inline float log2(float x) { return std::log2(x); }
CALX_HOST_DEVICE inline double log2(double x) { return std::log2(x); }
CALX_HOST_DEVICE inline float log10(float x) { return std::log10(x); }
CALX_HOST_DEVICE inline double log10(double x) { return std::log10(x); }
CALX_HOST_DEVICE inline float cbrt(float x) { return std::cbrt(x); }
CALX_HOST_DEVICE inline double cbrt(double x) { return std::cbrt(x); }
#endif
}  // namespace scalar

inline constexpr double ln2 = 0.693147180559945309417232121458176568;
inline constexpr double inv_ln2 = 1.44269504088896340735992468100189214;
inline constexpr double inv_ln10 = 0.434294481903251827651128918916605082;

// The kernels on xsimd 8.1 batches (found by argument-dependent lookup, so this header
// needs no xsimd), with the edges xsimd gets wrong moved into its range:
// - exp2 gives 0 below x = -1022 (-126 in float) instead of a subnormal, and inf from
//   x = 1023 (127) on instead of the finite value: exp2(x ± 64) · 2^∓64 there (exact
//   scalings, and one rounding into the subnormals);
// - log2, log10 and cbrt ignore the extra exponent range of double subnormals (results
//   off by up to 10^15 ulp; float is right): computed at x * 2^54, then shifted back.
template <class B>
B batch_exp2(const B& x) {
  using scalar::exp2, scalar::select;  // for lookup to go on to xsimd's (calx::exp2 would end it)
  using V = typename B::value_type;
  using std::numeric_limits;
  const auto low = x < B(V(numeric_limits<V>::min_exponent - 1));
  const auto high = x >= B(V(numeric_limits<V>::max_exponent - 1));
  const B shift = select(low, B(V(64)), select(high, B(V(-64)), B(V(0))));
  return exp2(x + shift) * select(low, B(V(0x1p-64)), select(high, B(V(0x1p64)), B(V(1))));
}

template <class B>
B batch_log2(const B& x) {
  using scalar::log2, scalar::select;
  using V = typename B::value_type;
  if constexpr (std::is_same_v<V, double>) {
    const auto tiny = x < B(std::numeric_limits<V>::min());
    return log2(select(tiny, x * B(0x1p54), x)) - select(tiny, B(54.0), B(0.0));
  } else {
    return log2(x);
  }
}

template <class B>
B batch_log10(const B& x) {
  using scalar::log10, scalar::select;
  using V = typename B::value_type;
  if constexpr (std::is_same_v<V, double>) {
    const auto tiny = x < B(std::numeric_limits<V>::min());
    return log10(select(tiny, x * B(0x1p54), x)) - select(tiny, B(54 * 0.301029995663981195213738894724493027), B(0.0));
  } else {
    return log10(x);
  }
}

template <class B>
B batch_cbrt(const B& x) {
  using scalar::abs, scalar::cbrt, scalar::select;
  using V = typename B::value_type;
  if constexpr (std::is_same_v<V, double>) {
    // |x| below the least normal, so that negative subnormals are scaled too.
    const auto tiny = abs(x) < B(std::numeric_limits<V>::min());
    return cbrt(select(tiny, x * B(0x1p54), x)) * select(tiny, B(0x1p-18), B(1.0));
  } else {
    return cbrt(x);
  }
}
}  // namespace detail

/// 2^x.
template <>
struct op_traits<exp2_op> : detail::unary_real_op<op_traits<exp2_op>> {
  static constexpr const char* name = "exp2";
  template <class T>
  CALX_HOST_DEVICE static T kernel(const T& x) {
    if constexpr (std::is_floating_point_v<T>)
      return detail::scalar::exp2(x);
    else
      return detail::batch_exp2(x);
  }
  static constexpr tracer d(const auto& y, const auto&) { return y * detail::ln2; }
};

template <>
struct op_traits<log2_op> : detail::unary_real_op<op_traits<log2_op>> {
  static constexpr const char* name = "log2";
  template <class T>
  CALX_HOST_DEVICE static T kernel(const T& x) {
    if constexpr (std::is_floating_point_v<T>)
      return detail::scalar::log2(x);
    else
      return detail::batch_log2(x);
  }
  static constexpr tracer d(const auto&, const auto& x) { return detail::inv_ln2 / x; }
};

template <>
struct op_traits<log10_op> : detail::unary_real_op<op_traits<log10_op>> {
  static constexpr const char* name = "log10";
  template <class T>
  CALX_HOST_DEVICE static T kernel(const T& x) {
    if constexpr (std::is_floating_point_v<T>)
      return detail::scalar::log10(x);
    else
      return detail::batch_log10(x);
  }
  static constexpr tracer d(const auto&, const auto& x) { return detail::inv_ln10 / x; }
};

/// The real cube root (negative for negative x). cbrt'(0) = inf: 1 / (3 y²) at y = 0.
template <>
struct op_traits<cbrt_op> : detail::unary_real_op<op_traits<cbrt_op>> {
  static constexpr const char* name = "cbrt";
  template <class T>
  CALX_HOST_DEVICE static T kernel(const T& x) {
    if constexpr (std::is_floating_point_v<T>)
      return detail::scalar::cbrt(x);
    else
      return detail::batch_cbrt(x);
  }
  static constexpr tracer d(const auto& y, const auto&) { return (1.0 / 3.0) / (y * y); }
};

/// sqrt(x² + y²) without overflow or underflow in the squares: m sqrt(1 + (n/m)²) with m
/// and n the larger and smaller of |x|, |y| (JAX's jnp.hypot); m == 0 gives 0, and an
/// infinite argument gives inf even beside a NaN (C's hypot).
///
/// The partials x/r and y/r are rules of the op's own: differentiating the decomposition
/// passes through the tangent of n/m, which is 1/m and overflows for a subnormal m (forward
/// mode then gives 0 · inf = NaN), and through a cotangent of n's magnitude, which keeps
/// only a subnormal's precision. At the origin each partial is 1/2 (JAX's, by max's tie
/// rule), and 0 where r is inf (JAX's constant branch). So the decomposition is only ever
/// evaluated, never differentiated, and needs no guards for the branches it discards.
template <>
struct op_traits<hypot_op> {
  static constexpr const char* name = "hypot";
  static constexpr int arity = 2;
  static constexpr auto decomposition(const auto& x, const auto& y) {
    using K = detail::constant_t<decltype(x)>;
    const K inf = std::numeric_limits<K>::infinity();
    const auto ax = calx::abs(x), ay = calx::abs(y);
    const auto m = calx::max(ax, ay), q = calx::min(ax, ay) / m;
    const auto r = calx::where(m == K(0), m, m * calx::sqrt(K(1) + q * q));
    return calx::where(ax == inf, inf, calx::where(ay == inf, inf, r));
  }
  /// v / r, the partial in the argument v. Below r = 1e-30 the ratio is taken at (x, y)
  /// scaled by 2^100 (exactly), where r has all its digits even if it is subnormal; r is
  /// guarded at 0 and inf, so that the rule's own derivative has no NaN either.
  static constexpr tracer partial(const auto& r, const auto& x, const auto& y, const auto& v) {
    constexpr double inf = std::numeric_limits<double>::infinity();
    const auto at_origin = r == 0.0, at_inf = r == inf, tiny = r < 1e-30;
    const tracer up = calx::where(tiny, 0x1p100, 1.0);
    const tracer rs = calx::where(tiny, calx::hypot(x * up, y * up), r);
    const tracer rg = calx::where(at_origin, 1.0, calx::where(at_inf, 1.0, rs));
    return calx::where(at_origin, 0.5, calx::where(at_inf, 0.0, v * up) / rg);
  }
  static constexpr tracer jvp(const auto& r, const auto& x, const auto& y, const auto& tx, const auto& ty) {
    tracer out = tx.is_zero() ? tracer{} : tx * partial(r, x, y, x);
    return ty.is_zero() ? out : out + ty * partial(r, x, y, y);
  }
  static constexpr std::array<tracer, 2> vjp(const auto& ct, const auto& r, const auto& x, const auto& y) {
    return {ct * partial(r, x, y, x), ct * partial(r, x, y, y)};
  }
};

/// x²: one multiplication, exact derivative 2x.
template <>
struct op_traits<square_op> {
  static constexpr const char* name = "square";
  static constexpr int arity = 1;
  static constexpr auto decomposition(const auto& x) { return x * x; }
};

/// 1 / x.
template <>
struct op_traits<reciprocal_op> {
  static constexpr const char* name = "reciprocal";
  static constexpr int arity = 1;
  static constexpr auto decomposition(const auto& x) {
    using K = detail::constant_t<decltype(x)>;
    return K(1) / x;
  }
};

CALX_END_NAMESPACE

#endif // CALX_OPS_POWERS_HPP
