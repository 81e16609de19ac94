/// @file detail/tensor/elementwise_batches.hpp
/// @brief A built-in elementwise op, or a reduction over every element, on a tensor of numbers
/// in memory, on the host, as xsimd batches of its elements: the op's own kernel (the one
/// vmap's loop runs on lanes of samples) on W elements at a time, the rest one by one. Without it a tensor node's loop
/// called the scalar kernel per element (std::exp and friends, which g++ does not vectorise):
/// logsumexp of 2500 numbers ran at 11-23x the hand-written xsimd loops.
#ifndef CALX_DETAIL_TENSOR_ELEMENTWISE_BATCHES_HPP
#define CALX_DETAIL_TENSOR_ELEMENTWISE_BATCHES_HPP

#include <calx/detail/internal_header_check.hpp>

#include <calx/config.hpp>

#include <xsimd/xsimd.hpp>

#include <cstddef>

CALX_BEGIN_NAMESPACE
namespace detail {

#ifndef __CUDA_ARCH__
/// `out[e] = Traits::kernel(in[e]...)` for e < N. The operands are either `out` itself (an
/// op written in place over a dead operand's registers) or apart from it; a partial overlap
/// runs element by element, as the plain loop would. Out of line: one function for every
/// node of the same op and size (inlined in each, it cost the tensor tests' TUs 14% more
/// compile time).
template <class Traits, int N, class T, class... In>
[[gnu::noinline]] void elementwise_batches(T* out, const In*... in) {
  using B = xsimd::batch<T>;
  constexpr int W = static_cast<int>(B::size);
  const bool apart = ((in == out || in + N <= out || out + N <= in) && ...);
  int e = 0;
  if (apart)
    for (; e + W <= N; e += W) Traits::kernel(B::load_unaligned(in + e)...).store_unaligned(out + e);
  for (; e < N; ++e) out[e] = Traits::kernel(in[e]...);
}

/// The fold of `Traits::kernel` (add, max or min) over the N elements at `in`: four
/// accumulators of W lanes, then their lanes and the rest in order. A sum is grouped
/// differently from the plain loop's left-to-right fold (as XLA's and the hand-written
/// loops' are): the same sum to rounding, at a quarter of the add latency chain.
template <class Traits, int N, class T>
CALX_INLINE T reduce_batches(const T* in) {
  using B = xsimd::batch<T>;
  constexpr int W = static_cast<int>(B::size);
  static_assert(N >= 4 * W, "calx internal: reduce_batches wants four batches at least");
  B acc0 = B::load_unaligned(in), acc1 = B::load_unaligned(in + W), acc2 = B::load_unaligned(in + 2 * W),
    acc3 = B::load_unaligned(in + 3 * W);
  int e = 4 * W;
  for (; e + 4 * W <= N; e += 4 * W) {
    acc0 = Traits::kernel(acc0, B::load_unaligned(in + e));
    acc1 = Traits::kernel(acc1, B::load_unaligned(in + e + W));
    acc2 = Traits::kernel(acc2, B::load_unaligned(in + e + 2 * W));
    acc3 = Traits::kernel(acc3, B::load_unaligned(in + e + 3 * W));
  }
  alignas(64) T lanes[W];
  Traits::kernel(Traits::kernel(acc0, acc1), Traits::kernel(acc2, acc3)).store_aligned(lanes);
  T r = lanes[0];
  for (int l = 1; l < W; ++l) r = Traits::kernel(r, lanes[l]);
  for (; e < N; ++e) r = Traits::kernel(r, in[e]);
  return r;
}
#endif

}  // namespace detail
CALX_END_NAMESPACE

#endif // CALX_DETAIL_TENSOR_ELEMENTWISE_BATCHES_HPP
