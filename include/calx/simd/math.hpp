/// @file simd/math.hpp
/// @brief calx's SIMD kernels where xsimd 8.1 alone is wrong: lanes whose inputs xsimd
/// mishandles are recomputed with libm, so batch results match the scalar ones at edge
/// inputs. Ordinary inputs take xsimd's path; only batches containing an edge input pay.
/// - pow: x <= 0, x == 1, p == 0, non-finite x or p (xsimd gives pow(0, 0) = 0,
///   pow(0, -1) = 0, pow(inf, 0) = NaN, wrong signs for negative x);
/// - atan2: zero or infinite operands (xsimd gives NaN);
/// - erf, erfc: |x| > 5.5 (xsimd overflows to NaN for huge |x|, and its erfc loses all
///   relative accuracy in the tail). Elsewhere xsimd's double erfc stays within ~3.5e4 ulp
///   (about 8e-12 relative) of libm's, which calx accepts to keep Black-Scholes-style code
///   vectorised (measured in tests/ops.values.cpp);
/// - log: subnormal x in double (xsimd ignores the extra exponent range).
#ifndef CALX_SIMD_MATH_HPP
#define CALX_SIMD_MATH_HPP

#include <calx/config.hpp>
#include <calx/detail/scalar_math.hpp>

#include <xsimd/xsimd.hpp>

#include <cmath>
#include <cstddef>
#include <limits>

CALX_BEGIN_NAMESPACE
namespace detail::simd_math {

/// `r` with the lanes flagged in `bad` recomputed by `scalar` from the inputs' lanes.
template <class B, class F, class... X>
B patch_lanes(const B& r, const typename B::batch_bool_type& bad, F scalar, const X&... x) {
  if (!xsimd::any(bad)) return r;
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

template <class B>
auto is_finite(const B& x) {
  return xsimd::abs(x) <= B(std::numeric_limits<typename B::value_type>::max());
}

template <class B>
B pow(const B& x, const B& p) {
  using T = typename B::value_type;
  const auto bad = (x <= B(T(0))) | (x == B(T(1))) | (p == B(T(0))) | !is_finite(x) | !is_finite(p);
  return patch_lanes(xsimd::pow(x, p), bad, [](T a, T b) { return scalar::pow(a, b); }, x, p);
}

template <class B>
B atan2(const B& a, const B& b) {
  using T = typename B::value_type;
  const auto bad = (a == B(T(0))) | (b == B(T(0))) | (xsimd::abs(a) == B(std::numeric_limits<T>::infinity())) |
                   (xsimd::abs(b) == B(std::numeric_limits<T>::infinity()));
  return patch_lanes(xsimd::atan2(a, b), bad, [](T u, T v) { return scalar::atan2(u, v); }, a, b);
}

template <class B>
B erf(const B& x) {
  using T = typename B::value_type;
  return patch_lanes(xsimd::erf(x), xsimd::abs(x) > B(T(5.5)), [](T u) { return scalar::erf(u); }, x);
}

template <class B>
B erfc(const B& x) {
  using T = typename B::value_type;
  const auto bad = xsimd::abs(x) > B(T(5.5));
  return patch_lanes(xsimd::erfc(x), bad, [](T u) { return scalar::erfc(u); }, x);
}

template <class B>
B log(const B& x) {
  using T = typename B::value_type;
  if constexpr (std::is_same_v<T, double>) {
    const auto bad = (x > B(T(0))) & (x < B(std::numeric_limits<T>::min()));
    return patch_lanes(xsimd::log(x), bad, [](T u) { return scalar::log(u); }, x);
  } else {
    return xsimd::log(x);
  }
}

}  // namespace detail::simd_math
CALX_END_NAMESPACE

#endif // CALX_SIMD_MATH_HPP
