/// @file batched.hpp
/// @brief `calx::batched<T>`: the owning, contiguous, 64-byte aligned container of one `T`
/// per sample of a batch (vmap's results, gradients with respect to batches). `T` is a
/// number, or the per-sample structure of a result (`r[sample][element]` for a
/// `std::array` per sample, as JAX orders axes).
#ifndef CALX_BATCHED_HPP
#define CALX_BATCHED_HPP

#include <calx/config.hpp>

#include <cstddef>
#include <cstdio>
#include <cstdlib>
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

/// What CALX_ASSERT calls when its condition fails (calx/config.hpp).
[[noreturn]] inline void assertion_failed(const char* what, const char* cond, const char* file, int line) {
  std::fprintf(stderr, "%s:%d: calx: %s (%s)\n", file, line, what, cond);
  std::abort();
}
}  // namespace detail

/// One `T` per sample: a `std::vector` with a 64-byte aligned allocator (`size()`, `data()`,
/// iterators, `resize`, ...) whose `operator[]` checks its index in debug builds
/// (CALX_ASSERT), and `at()` always.
template <class T>
class batched : public std::vector<T, detail::aligned_allocator<T>> {
  using base = std::vector<T, detail::aligned_allocator<T>>;

 public:
  using base::base;
  using typename base::const_reference;
  using typename base::reference;
  using typename base::size_type;

  reference operator[](size_type i) {
    CALX_ASSERT(i < this->size(), "calx::batched: sample index out of range (results are indexed [sample][element])");
    return base::operator[](i);
  }
  const_reference operator[](size_type i) const {
    CALX_ASSERT(i < this->size(), "calx::batched: sample index out of range (results are indexed [sample][element])");
    return base::operator[](i);
  }
};

CALX_END_NAMESPACE

#endif // CALX_BATCHED_HPP
