/// @file detail/exec/device_memory.hpp
/// @brief The few memory and stream operations the device backend needs, in one place:
/// CUDA's runtime under nvcc, plain host memory with CALX_DEVICE_ON_HOST (the device path
/// run serially on the host, for tests on machines without a GPU). `device_backend` says
/// which one a translation unit has (none: device spans are refused with a message).
#ifndef CALX_DETAIL_EXEC_DEVICE_MEMORY_HPP
#define CALX_DETAIL_EXEC_DEVICE_MEMORY_HPP

#include <calx/detail/internal_header_check.hpp>

#include <cstddef>
#include <cstring>
#include <new>
#include <stdexcept>
#include <string>

#if defined(__CUDACC__) && !defined(CALX_DEVICE_ON_HOST)
#include <cuda_runtime.h>
#define CALX_DEVICE_BACKEND_CUDA 1
#elif defined(CALX_DEVICE_ON_HOST)
#define CALX_DEVICE_BACKEND_HOST 1
#endif

CALX_BEGIN_NAMESPACE
namespace detail {

enum class device_kind { none, cuda, host };
#if defined(CALX_DEVICE_BACKEND_CUDA)
inline constexpr device_kind device_backend = device_kind::cuda;
#elif defined(CALX_DEVICE_BACKEND_HOST)
inline constexpr device_kind device_backend = device_kind::host;
#else
inline constexpr device_kind device_backend = device_kind::none;
#endif

/// A CUDA stream as calx carries it (cudaStream_t is a pointer; null: the default stream).
using stream_handle = void*;

#if defined(CALX_DEVICE_BACKEND_CUDA)
/// Throws std::runtime_error naming the call and CUDA's message where `e` is an error.
inline void cuda_check(cudaError_t e, const char* what) {
  if (e != cudaSuccess)
    throw std::runtime_error(std::string("calx: CUDA error in ") + what + ": " + cudaGetErrorName(e) + ": " +
                             cudaGetErrorString(e));
}
inline cudaStream_t cuda_stream(stream_handle s) { return static_cast<cudaStream_t>(s); }
#endif

#if defined(CALX_DEVICE_BACKEND_CUDA) || defined(CALX_DEVICE_BACKEND_HOST)
/// `bytes` of device memory; `ordered`: stream-ordered on `s` (the scratch of one call).
inline void* device_allocate(std::size_t bytes, stream_handle s = nullptr, bool ordered = false) {
  if (bytes == 0) return nullptr;
#if defined(CALX_DEVICE_BACKEND_CUDA)
  void* p = nullptr;
  if (ordered)
    cuda_check(cudaMallocAsync(&p, bytes, cuda_stream(s)), "cudaMallocAsync");
  else
    cuda_check(cudaMalloc(&p, bytes), "cudaMalloc");
  return p;
#else
  (void)s;
  (void)ordered;
  return ::operator new(bytes, std::align_val_t{64});
#endif
}
inline void device_free(void* p, stream_handle s = nullptr, bool ordered = false) noexcept {
  if (p == nullptr) return;
#if defined(CALX_DEVICE_BACKEND_CUDA)
  if (ordered)
    (void)cudaFreeAsync(p, cuda_stream(s));
  else
    (void)cudaFree(p);
#else
  (void)s;
  (void)ordered;
  ::operator delete(p, std::align_val_t{64});
#endif
}
/// Copies `bytes` between host and device (`to_device`: host -> device), waiting for it.
inline void device_copy(void* dst, const void* src, std::size_t bytes, bool to_device) {
  if (bytes == 0) return;
#if defined(CALX_DEVICE_BACKEND_CUDA)
  cuda_check(cudaMemcpy(dst, src, bytes, to_device ? cudaMemcpyHostToDevice : cudaMemcpyDeviceToHost), "cudaMemcpy");
#else
  (void)to_device;
  std::memcpy(dst, src, bytes);
#endif
}
/// Copies `bytes` from the device to the host after the work queued on `s`, and waits.
inline void device_copy_back(void* dst, const void* src, std::size_t bytes, stream_handle s) {
#if defined(CALX_DEVICE_BACKEND_CUDA)
  cuda_check(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToHost, cuda_stream(s)), "cudaMemcpyAsync");
  cuda_check(cudaStreamSynchronize(cuda_stream(s)), "cudaStreamSynchronize");
#else
  (void)s;
  std::memcpy(dst, src, bytes);
#endif
}
#endif

}  // namespace detail
CALX_END_NAMESPACE

#endif // CALX_DETAIL_EXEC_DEVICE_MEMORY_HPP
