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
