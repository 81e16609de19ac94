/// @file detail/ops/scalar_math.hpp
/// @brief Scalar kernels for float and double, callable on host and device. Kernels call
/// these unqualified after a using-declaration, so xsimd's overloads for batches are
/// found by argument-dependent lookup with the same spelling.
#ifndef CALX_DETAIL_OPS_SCALAR_MATH_HPP
#define CALX_DETAIL_OPS_SCALAR_MATH_HPP

#include <calx/detail/internal_header_check.hpp>

#include <cmath>
#include <type_traits>

CALX_BEGIN_NAMESPACE
namespace detail::scalar {

#ifdef __CUDA_ARCH__
#define CALX_SCALAR_UNARY(name)                                                       \
  CALX_HOST_DEVICE inline float name(float x) { return ::name##f(x); }                \
  CALX_HOST_DEVICE inline double name(double x) { return ::name(x); }
#define CALX_SCALAR_BINARY(name)                                                      \
  CALX_HOST_DEVICE inline float name(float x, float y) { return ::name##f(x, y); }    \
  CALX_HOST_DEVICE inline double name(double x, double y) { return ::name(x, y); }
#else
#define CALX_SCALAR_UNARY(name)                                                       \
  CALX_HOST_DEVICE inline float name(float x) { return std::name(x); }                \
  CALX_HOST_DEVICE inline double name(double x) { return std::name(x); }
#define CALX_SCALAR_BINARY(name)                                                      \
  CALX_HOST_DEVICE inline float name(float x, float y) { return std::name(x, y); }    \
  CALX_HOST_DEVICE inline double name(double x, double y) { return std::name(x, y); }
#endif

CALX_SCALAR_UNARY(exp)
CALX_SCALAR_UNARY(log)
CALX_SCALAR_UNARY(log1p)
CALX_SCALAR_UNARY(expm1)
CALX_SCALAR_UNARY(sqrt)
CALX_SCALAR_UNARY(sin)
CALX_SCALAR_UNARY(cos)
CALX_SCALAR_UNARY(tan)
CALX_SCALAR_UNARY(tanh)
CALX_SCALAR_UNARY(erf)
CALX_SCALAR_UNARY(erfc)
CALX_SCALAR_UNARY(fabs)
CALX_SCALAR_BINARY(pow)
CALX_SCALAR_BINARY(atan2)

#undef CALX_SCALAR_UNARY
#undef CALX_SCALAR_BINARY

CALX_HOST_DEVICE inline float abs(float x) { return fabs(x); }
CALX_HOST_DEVICE inline double abs(double x) { return fabs(x); }

/// a / b. In device code (a * r) * s, where r = 1/(b * s) rounded and s a power of two that
/// brings b into [2^-1000, 2^1000] (f32: [2^-100, 2^100]), so that r is a normal number: the
/// compiler computes one reciprocal for every division by the same value, where it cannot
/// share IEEE divisions, each a sequence of a dozen instructions on a GPU (a derivative
/// divides by the same value many times: Black-Scholes's price and five Greeks, 11 times by
/// 4 values; bench/cuda.cu). No branch: a test with a division in its fallback cost as much
/// as it saved. The result is within 2 ulp of a / b (two roundings; the scaling is exact);
/// zeros, infinities and NaN give what a / b gives (tests/cuda/divide.cu).
#ifdef __CUDA_ARCH__
CALX_HOST_DEVICE inline float divide(float a, float b) {
  const float m = ::fabsf(b);
  const float s = m > 0x1p100f ? 0x1p-40f : (m < 0x1p-100f ? 0x1p40f : 1.0f);
  return a * __frcp_rn(b * s) * s;
}
CALX_HOST_DEVICE inline double divide(double a, double b) {
  const double m = ::fabs(b);
  const double s = m > 0x1p1000 ? 0x1p-100 : (m < 0x1p-1000 ? 0x1p100 : 1.0);
  return a * __drcp_rn(b * s) * s;
}
#else
template <class T>
CALX_HOST_DEVICE constexpr T divide(const T& a, const T& b) {
  return a / b;
}
#endif

template <class T>
CALX_HOST_DEVICE constexpr T select(bool c, const T& a, const T& b) {
  return c ? a : b;
}

}  // namespace detail::scalar

/// SIMD kernels that correct xsimd at edge inputs, defined in calx/simd/math.hpp (which
/// every path that evaluates on batches includes).
namespace detail::simd_math {
template <class B>
CALX_INLINE B pow(const B& x, const B& p);
template <class B>
CALX_INLINE B atan2(const B& a, const B& b);
template <class B>
CALX_INLINE B erf(const B& x);
template <class B>
CALX_INLINE B erfc(const B& x);
template <class B>
CALX_INLINE B log(const B& x);
}  // namespace detail::simd_math
CALX_END_NAMESPACE

#endif // CALX_DETAIL_OPS_SCALAR_MATH_HPP
