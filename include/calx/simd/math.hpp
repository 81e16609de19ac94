/// @file simd/math.hpp
/// @brief calx's SIMD kernels where xsimd 8.1 alone is wrong: lanes whose inputs xsimd
/// mishandles are recomputed with libm, so batch results match the scalar ones at edge
/// inputs. Ordinary inputs take xsimd's path; only batches containing an edge input pay.
/// - pow: x <= 0, x == 1, p == 0, non-finite x or p (xsimd gives pow(0, 0) = 0,
///   pow(0, -1) = 0, pow(inf, 0) = NaN, wrong signs for negative x);
/// - atan2: zero or infinite operands (xsimd gives NaN);
/// - erf: |x| > 6 is ±1 (xsimd overflows to NaN for huge |x|), selected without a branch;
/// - erfc: |x| > 5.5, where xsimd loses all relative accuracy, is computed in SIMD from
///   Laplace's continued fraction, erfc(x) = exp(-x²)/√π · 1/(x + ½/(x + 1/(x + 3/2/(...)))),
///   with exp(-x²) split so that its large part is exact (within 5 ulp of libm). Elsewhere
///   xsimd's double erfc stays within ~3.5e4 ulp (about 8e-12 relative) of libm's, which
///   calx accepts to keep Black-Scholes-style code vectorised (tests/_include/ops_values_cases.hpp);
/// - log: subnormal x in double (xsimd ignores the extra exponent range).
#ifndef CALX_SIMD_MATH_HPP
#define CALX_SIMD_MATH_HPP

#include <calx/config.hpp>
#include <calx/detail/ops/scalar_math.hpp>

#include <xsimd/xsimd.hpp>

#include <cmath>
#include <cstddef>
#include <limits>

CALX_BEGIN_NAMESPACE
namespace detail::simd_math {

/// `r` with the lanes flagged in `bad` recomputed by `scalar` (the rare, out-of-line path).
template <class B, class F, class... X>
[[gnu::noinline]] B recompute_lanes(const B& r, const typename B::batch_bool_type& bad, F scalar, const X&... x) {
  using T = typename B::value_type;
  constexpr std::size_t W = B::size;
  alignas(64) T out[W];
  alignas(64) T in[sizeof...(X)][W];
  alignas(64) bool flag[W];
  r.store_aligned(out);
  bad.store_aligned(flag);
  std::size_t k = 0;
  ((x.store_aligned(in[k++])), ...);
  for (std::size_t l = 0; l < W; ++l)
    if (flag[l]) out[l] = [&]<std::size_t... I>(std::index_sequence<I...>) {
        return scalar(in[I][l]...);
      }(std::index_sequence_for<X...>{});
  return B::load_aligned(out);
}

/// `r`, or, when a lane is flagged in `bad`, `r` with those lanes recomputed by `scalar`.
template <class B, class F, class... X>
CALX_INLINE B patch_lanes(const B& r, const typename B::batch_bool_type& bad, F scalar, const X&... x) {
  return xsimd::any(bad) ? recompute_lanes(r, bad, scalar, x...) : r;
}

/// erfc(x) for x >= 5.5 (lanes below are garbage and get discarded by the caller).
template <class B>
B erfc_tail(const B& x) {
  using T = typename B::value_type;
  constexpr bool dbl = std::is_same_v<T, double>;
  constexpr int depth = dbl ? 14 : 12;                       // measured: <= 5 ulp (double), <= 4 ulp (float)
  const B a = xsimd::min(x, B(dbl ? T(30) : T(12)));       // erfc is 0 from there on; keeps inf out
  B t = a;
  for (int k = depth; k >= 1; --k) t = a + B(T(0.5) * T(k)) / t;
  const B scale(dbl ? T(4096) : T(64));                    // hi*hi is exact: few significant bits
  const B hi = xsimd::round(a * scale) / scale;
  const B e = xsimd::exp(-(hi * hi)) * xsimd::exp(-((a - hi) * (a + hi)));
  return e / (t * B(T(1.7724538509055160273)));
}

template <class B>
auto is_finite(const B& x) {
  return xsimd::abs(x) <= B(std::numeric_limits<typename B::value_type>::max());
}

template <class B>
B pow(const B& x, const B& p) {  // always_inline: see the declaration in detail/ops/scalar_math.hpp
  using T = typename B::value_type;
  const auto bad = (x <= B(T(0))) | (x == B(T(1))) | (p == B(T(0))) | !is_finite(x) | !is_finite(p);
  return patch_lanes(xsimd::pow(x, p), bad, [](T a, T b) { return scalar::pow(a, b); }, x, p);
}

template <class B>
B atan2(const B& a, const B& b) {  // always_inline: see the declaration in detail/ops/scalar_math.hpp
  using T = typename B::value_type;
  const auto bad = (a == B(T(0))) | (b == B(T(0))) | (xsimd::abs(a) == B(std::numeric_limits<T>::infinity())) |
                   (xsimd::abs(b) == B(std::numeric_limits<T>::infinity()));
  return patch_lanes(xsimd::atan2(a, b), bad, [](T u, T v) { return scalar::atan2(u, v); }, a, b);
}

template <class B>
B erf(const B& x) {  // always_inline: see the declaration in detail/ops/scalar_math.hpp
  using T = typename B::value_type;
  // erf(±6) rounds to ±1 in float and double; NaN compares false and stays NaN.
  return xsimd::select(xsimd::abs(x) > B(T(6)), xsimd::select(x < B(T(0)), B(T(-1)), B(T(1))), xsimd::erf(x));
}

template <class B>
B erfc(const B& x) {  // always_inline: see the declaration in detail/ops/scalar_math.hpp
  using T = typename B::value_type;
  const B ax = xsimd::abs(x);
  const auto tail = ax > B(T(5.5));
  const B r = xsimd::erfc(x);
  if (!xsimd::any(tail)) return r;
  const B t = erfc_tail(ax);
  return xsimd::select(tail, xsimd::select(x < B(T(0)), B(T(2)) - t, t), r);
}

template <class B>
B log(const B& x) {  // always_inline: see the declaration in detail/ops/scalar_math.hpp
  using T = typename B::value_type;
  if constexpr (std::is_same_v<T, double>) {
    // Subnormals, which xsimd mishandles, are scaled into the normal range first:
    // log(x) = log(x * 2^54) - 54 ln 2, exact in the scaling and branch-free.
    const auto tiny = x < B(std::numeric_limits<T>::min());
    const B scaled = xsimd::select(tiny, x * B(T(18014398509481984.0)), x);
    return xsimd::log(scaled) - xsimd::select(tiny, B(T(37.429947750237046)), B(T(0)));
  } else {
    return xsimd::log(x);
  }
}

}  // namespace detail::simd_math
CALX_END_NAMESPACE

#endif // CALX_SIMD_MATH_HPP
