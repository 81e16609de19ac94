/// @file detail/call/batch_inputs.hpp
/// @brief The arguments of a batched run as the executor reads them: one `input_view` per
/// flat input, a strided batch or a single value; the batch length they share; and what a
/// batch argument of vmap is (a contiguous range of samples).
#ifndef CALX_DETAIL_CALL_BATCH_INPUTS_HPP
#define CALX_DETAIL_CALL_BATCH_INPUTS_HPP

#include <calx/detail/internal_header_check.hpp>

#include <calx/batched.hpp>
#include <calx/device_span.hpp>
#include <calx/detail/exec/io.hpp>
#include <calx/detail/runtime_error.hpp>
#include <calx/tree.hpp>

#include <array>
#include <cstddef>
#include <span>
#include <stdexcept>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

CALX_BEGIN_NAMESPACE
namespace detail {

/// The batch length shared by every batched argument; the first mismatch throws with both
/// lengths and the argument positions.
struct batch_length {
  std::size_t size = 0;
  int owner = -1;
  CALX_INLINE void add(std::size_t n, int arg, const char* api) {
    if (owner < 0) {
      size = n;
      owner = arg;
    } else if (n != size) {
      mismatch(n, arg, api);
    }
  }
  // Out of line: the message is built only when it is thrown.
  [[noreturn, gnu::cold, gnu::noinline]] void mismatch(std::size_t n, int arg, const char* api) const {
    invalid_argument(std::string(api) + ": batched arguments have different lengths: argument " +
                     std::to_string(owner) + " has " + std::to_string(size) + " samples, argument " +
                     std::to_string(arg) + " has " + std::to_string(n));
  }
};

/// The error of an output buffer whose length is not the batch's.
[[noreturn, gnu::cold, gnu::noinline]] inline void wrong_output_length(std::size_t got, std::size_t batch,
                                                                         const char* api) {
  invalid_argument(std::string(api) + ": an output buffer has " + std::to_string(got) + " elements for a batch of " +
                   std::to_string(batch));
}

/// Views of the leaves of element type `E` across a contiguous range of elements: leaf
/// addresses in the first element, and a stride of sizeof(E). An empty range gives null
/// views (nothing is read).
template <class L, class E>
CALX_INLINE void collect_element_views(const E* first, input_view<L>*& out) {
  if (first != nullptr) {
    for_each_leaf(*first, [&](const auto& leaf) CALX_INLINE_LAMBDA {
      *out++ = input_view<L>{reinterpret_cast<const unsigned char*>(&leaf), sizeof(E), L{}};
    });
  } else {
    for (std::size_t k = 0; k < leaf_count_v<E>; ++k) *out++ = input_view<L>{};
  }
}

/// Views of an argument structure whose leaves are numbers (one value) or runtime batches
/// (a std::vector or std::span leaf, as grad and jvp take them) of numbers or of structures
/// (one strided view per leaf of the sample).
template <class L, class T>
CALX_INLINE void collect_views(const T& t, input_view<L>*& out, batch_length& len, int arg, const char* api) {
  for_each_leaf(t, [&]<class X>(const X& leaf) CALX_INLINE_LAMBDA {
    if constexpr (std::is_arithmetic_v<X>) {
      (out++)->value = static_cast<L>(leaf);
    } else {  // a std::vector or std::span
      len.add(leaf.size(), arg, api);
      collect_element_views<L>(leaf.empty() ? nullptr : leaf.data(), out);
    }
  });
}

/// A batch argument of vmap: a contiguous range whose elements are argument structures.
template <class C>
struct batch_source_traits {
  static constexpr bool valid = false;
};
template <class E, class A>
struct batch_source_traits<std::vector<E, A>> {
  static constexpr bool valid = tree_traits<E>::valid && !tree_traits<E>::has_batch && !tree_traits<E>::has_integer;
  static constexpr std::size_t extent = std::dynamic_extent;
  using element = E;
};
template <class E>
struct batch_source_traits<batched<E>> : batch_source_traits<std::vector<E>> {};
template <class E, std::size_t X>
struct batch_source_traits<std::span<E, X>> : batch_source_traits<std::vector<std::remove_const_t<E>>> {
  static constexpr std::size_t extent = X;
};
template <class E>
struct batch_source_traits<device_span<E>> : batch_source_traits<std::vector<std::remove_const_t<E>>> {};
template <class E, std::size_t N>
struct batch_source_traits<std::array<E, N>> : batch_source_traits<std::vector<E>> {
  static constexpr std::size_t extent = N;
};

template <class T>
inline constexpr bool is_std_array_v = false;
template <class T, std::size_t N>
inline constexpr bool is_std_array_v<std::array<T, N>> = true;

/// The compile-time length of a batch argument, or std::dynamic_extent.
template <class A>
constexpr std::size_t extent_of() {
  if constexpr (requires { batch_source_traits<A>::extent; })
    return batch_source_traits<A>::extent;
  else
    return std::dynamic_extent;
}

}  // namespace detail
CALX_END_NAMESPACE

#endif // CALX_DETAIL_CALL_BATCH_INPUTS_HPP
