/// @file batched.hpp
/// @brief `calx::batched<T>`: the owning, contiguous, 64-byte aligned container that holds
/// one value per sample of a batch (vmap's results, gradients with respect to batches).
#ifndef CALX_BATCHED_HPP
#define CALX_BATCHED_HPP

#include <calx/config.hpp>

#include <cstddef>
#include <new>
#include <vector>

CALX_BEGIN_NAMESPACE
namespace detail {
/// std::allocator with 64-byte alignment, so full SIMD registers load from column starts.
template <class T>
struct aligned_allocator {
  using value_type = T;
  static constexpr std::align_val_t alignment{64};
  aligned_allocator() = default;
  template <class U>
  constexpr aligned_allocator(const aligned_allocator<U>&) noexcept {}
  T* allocate(std::size_t n) { return static_cast<T*>(::operator new(n * sizeof(T), alignment)); }
  void deallocate(T* p, std::size_t) noexcept { ::operator delete(p, alignment); }
  template <class U>
  friend constexpr bool operator==(const aligned_allocator&, const aligned_allocator<U>&) noexcept {
    return true;
  }
};
}  // namespace detail

/// One value per sample: `size()`, `operator[]`, `data()`, iterators (a std::vector with
/// an aligned allocator).
template <class T>
using batched = std::vector<T, detail::aligned_allocator<T>>;

CALX_END_NAMESPACE

#endif // CALX_BATCHED_HPP
