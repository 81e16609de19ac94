/// @file config.hpp
/// @brief The one place for calx's macros: namespace, host/device and inline markers.
#ifndef CALX_CONFIG_HPP
#define CALX_CONFIG_HPP

/// Defined by every public header before it includes a `calx/detail/` header.
#define CALX_PUBLIC_HEADER_INCLUDED 1

#define CALX_VERSION_MAJOR 0
#define CALX_VERSION_MINOR 1
#define CALX_VERSION_PATCH 0

#define CALX_BEGIN_NAMESPACE \
  namespace calx {           \
  inline namespace v0 {
#define CALX_END_NAMESPACE \
  }                        \
  }

// Every function that may run in a CUDA kernel is marked CALX_HOST_DEVICE.
#if defined(__CUDACC__) || defined(__HIPCC__)
#define CALX_HOST_DEVICE __host__ __device__
#else
#define CALX_HOST_DEVICE
#endif

#if defined(__GNUC__) || defined(__clang__)
#define CALX_INLINE inline __attribute__((always_inline))
#define CALX_INLINE_LAMBDA __attribute__((always_inline))  // after a lambda's parameter list
#else
#define CALX_INLINE inline
#define CALX_INLINE_LAMBDA
#endif

// CALX_ASSERT(cond, msg): a check of a caller's precondition (an index in range, ...) that
// aborts with `msg` and the location. On unless NDEBUG is defined, like assert(); define
// CALX_ENABLE_ASSERTS to keep it in release builds. Never in device code.
#if (!defined(NDEBUG) || defined(CALX_ENABLE_ASSERTS)) && !defined(__CUDA_ARCH__)
#define CALX_ASSERTS 1
#define CALX_ASSERT(cond, msg) ((cond) ? static_cast<void>(0) : ::calx::detail::assertion_failed(msg, #cond, __FILE__, __LINE__))
#else
#define CALX_ASSERTS 0
#define CALX_ASSERT(cond, msg) static_cast<void>(0)
#endif

// Concept checks with fix-it messages are on by default. The costly one traces each
// function a second time to test that tracing is a constant expression; translation units
// that are rebuilt often may define CALX_DISABLE_CONCEPT_CHECKS to skip it (the cheap
// checks stay).
#ifdef CALX_DISABLE_CONCEPT_CHECKS
#define CALX_CONCEPT_CHECKS 0
#else
#define CALX_CONCEPT_CHECKS 1
#endif

#endif // CALX_CONFIG_HPP
