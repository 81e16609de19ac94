/// @file device_vector.hpp
/// @brief `calx::device_vector<T>`: an owning buffer of device memory (cudaMalloc), with
/// copies to and from the host. What calx returns for a per-sample result of a transform
/// called on device spans (a gradient over device samples), and a convenience for yours.
/// Needs nvcc, or CALX_DEVICE_ON_HOST (then the buffer is host memory).
#ifndef CALX_DEVICE_VECTOR_HPP
#define CALX_DEVICE_VECTOR_HPP

#include <calx/config.hpp>
#include <calx/device_span.hpp>
#include <calx/detail/exec/device_memory.hpp>

#include <cstddef>
#include <span>
#include <utility>
#include <vector>

CALX_BEGIN_NAMESPACE

#if defined(CALX_DEVICE_BACKEND_CUDA) || defined(CALX_DEVICE_BACKEND_HOST)
/// `size()` values of type `T` in device memory. Move-only; the memory is freed with it.
/// `calx::device_span(v)` views it.
template <class T>
class device_vector {
 public:
  using value_type = T;

  device_vector() = default;
  explicit device_vector(std::size_t n) { resize(n); }
  /// A copy of host values.
  explicit device_vector(std::span<const T> host) {
    resize(host.size());
    detail::device_copy(data_, host.data(), host.size() * sizeof(T), true);
  }
  device_vector(const device_vector&) = delete;
  device_vector& operator=(const device_vector&) = delete;
  device_vector(device_vector&& o) noexcept : data_(std::exchange(o.data_, nullptr)), size_(std::exchange(o.size_, 0)) {}
  device_vector& operator=(device_vector&& o) noexcept {
    std::swap(data_, o.data_);
    std::swap(size_, o.size_);
    return *this;
  }
  ~device_vector() { detail::device_free(data_); }

  /// Makes room for `n` values; the old values are not kept.
  void resize(std::size_t n) {
    if (n == size_) return;
    detail::device_free(data_);
    data_ = nullptr;
    size_ = 0;
    data_ = static_cast<T*>(detail::device_allocate(n * sizeof(T)));
    size_ = n;
  }
  T* data() { return data_; }
  const T* data() const { return data_; }
  std::size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }

  /// The values, copied to the host (waits for work on the device).
  std::vector<T> to_host() const {
    std::vector<T> h(size_);
    detail::device_copy(h.data(), data_, size_ * sizeof(T), false);
    return h;
  }

 private:
  T* data_ = nullptr;
  std::size_t size_ = 0;
};
#endif

CALX_END_NAMESPACE

#endif // CALX_DEVICE_VECTOR_HPP
