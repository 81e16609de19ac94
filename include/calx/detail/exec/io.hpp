/// @file detail/exec/io.hpp
/// @brief The flat inputs and outputs of a batched run, as every batched backend sees them:
/// one view per flat input (a strided batch or one value) and per flat output (a column of
/// one value per sample, or a single value).
#ifndef CALX_DETAIL_EXEC_IO_HPP
#define CALX_DETAIL_EXEC_IO_HPP

#include <calx/detail/internal_header_check.hpp>

#include <cstddef>

CALX_BEGIN_NAMESPACE
namespace detail {

/// One flat input: a batch (`base` + `stride` bytes per sample) or one value.
template <class T>
struct input_view {
  const unsigned char* base = nullptr;
  std::size_t stride = 0;
  T value{};
};

/// One flat output: a column (`column` + `stride` bytes per sample; a stride of sizeof(T) is
/// contiguous) or a single value.
template <class T>
struct output_view {
  T* column = nullptr;
  std::size_t stride = sizeof(T);
  T* scalar = nullptr;
  /// The value of sample i.
  CALX_HOST_DEVICE T& at(std::size_t i) const { return *reinterpret_cast<T*>(reinterpret_cast<unsigned char*>(column) + i * stride); }
};

}  // namespace detail
CALX_END_NAMESPACE

#endif // CALX_DETAIL_EXEC_IO_HPP
