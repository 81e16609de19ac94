/// @file device_span.hpp
/// @brief `calx::device_span<E>`: a view of samples in device (GPU) memory, what
/// `calx::vmap` takes and writes (`.into`) to run as a CUDA kernel. Host code never reads
/// through it: it has no element access, only where the samples are and how many.
#ifndef CALX_DEVICE_SPAN_HPP
#define CALX_DEVICE_SPAN_HPP

#include <calx/config.hpp>

#include <concepts>
#include <cstddef>
#include <type_traits>
#include <utility>

CALX_BEGIN_NAMESPACE

/// `size()` samples of type `E` at `data()`, in device memory: a `float`, a `double`, or a
/// structure of them (std::array, std::tuple, std::pair), as a vmap sample on the host.
template <class E>
class device_span {
 public:
  using element_type = E;
  using value_type = std::remove_cv_t<E>;

  constexpr device_span() = default;
  CALX_HOST_DEVICE constexpr device_span(E* data, std::size_t size) : data_(data), size_(size) {}
  /// From anything that has device memory's `data()` and `size()`: a calx::device_vector,
  /// a cuda::std::span, a thrust::device_vector's raw pointer pair wrapped so.
  template <class R>
    requires(!std::is_same_v<std::remove_cvref_t<R>, device_span> &&
             requires(R& r) {
               { r.data() } -> std::convertible_to<E*>;
               { r.size() } -> std::convertible_to<std::size_t>;
             })
  constexpr device_span(R& r) : data_(r.data()), size_(static_cast<std::size_t>(r.size())) {}
  /// A span of const samples from one of mutable samples.
  template <class F>
    requires(std::is_same_v<const F, E> && !std::is_same_v<F, E>)
  CALX_HOST_DEVICE constexpr device_span(device_span<F> s) : data_(s.data()), size_(s.size()) {}

  CALX_HOST_DEVICE constexpr E* data() const { return data_; }
  CALX_HOST_DEVICE constexpr std::size_t size() const { return size_; }
  CALX_HOST_DEVICE constexpr bool empty() const { return size_ == 0; }
  /// Samples [offset, offset + count).
  CALX_HOST_DEVICE constexpr device_span subspan(std::size_t offset, std::size_t count) const {
    return {data_ + offset, count};
  }

 private:
  E* data_ = nullptr;
  std::size_t size_ = 0;
};

template <class R>
device_span(R&) -> device_span<std::remove_pointer_t<decltype(std::declval<R&>().data())>>;

/// Device memory that calx owns (calx/device_vector.hpp: with nvcc or CALX_DEVICE_ON_HOST).
template <class T>
class device_vector;

namespace detail {
template <class T>
inline constexpr bool is_device_span_v = false;
template <class E>
inline constexpr bool is_device_span_v<device_span<E>> = true;
/// Whether `T` is a range of device memory: a device_span or a device_vector.
template <class T>
inline constexpr bool is_device_range_v = is_device_span_v<T>;
template <class T>
inline constexpr bool is_device_range_v<device_vector<T>> = true;
}  // namespace detail

CALX_END_NAMESPACE

#endif // CALX_DEVICE_SPAN_HPP
