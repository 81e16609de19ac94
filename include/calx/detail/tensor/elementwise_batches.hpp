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

/// The fold of `Traits::kernel` over the N numbers at `l`, as a tree (halves, quarters,
/// ...): log2(N) dependent steps, not N - 1.
template <class Traits, int N, class T>
CALX_INLINE T fold_tree(const T* l) {
  if constexpr (N == 1)
    return l[0];
  else
    return Traits::kernel(fold_tree<Traits, N / 2>(l), fold_tree<Traits, N - N / 2>(l + N / 2));
}

/// The fold of `Traits::kernel` (add, max or min) over the lanes of a batch (a sum:
/// xsimd's `hadd`).
template <class Traits, class T, class A>
CALX_INLINE T fold_lanes(const xsimd::batch<T, A>& b) {
  if constexpr (!requires { Traits::extremum_is_max; }) {
    return xsimd::hadd(b);
  } else {
    alignas(64) T lanes[xsimd::batch<T, A>::size];
    b.store_aligned(lanes);
    return fold_tree<Traits, static_cast<int>(xsimd::batch<T, A>::size)>(lanes);
  }
}

/// The fold of `Traits::kernel` (add, max or min) over N elements, `batch(e)` the W
/// elements from e as a batch and `one(e)` element e: four accumulators of W lanes, then
/// their lanes (`fold_lanes`) and the rest in order. A sum is grouped differently from the
/// plain loop's left-to-right fold (as XLA's and the hand-written loops' are): the same sum
/// to rounding, at a quarter of the add latency chain. B: the batch type (a fused loop's
/// may be narrower than the widest, `loop_batch`).
template <class Traits, int N, class T, class B = xsimd::batch<T>, class Batch, class One>
CALX_INLINE T fold_batches(const Batch& batch, const One& one) {
  constexpr int W = static_cast<int>(B::size);
  static_assert(N >= 4 * W, "calx internal: fold_batches wants four batches at least");
  // Constant bounds: with the first loop's end as the rest's start, g++ 12 could not bound
  // the rest's index and warned of reads past the operand.
  constexpr int full = N / (4 * W) * (4 * W);
  B acc0 = batch(0), acc1 = batch(W), acc2 = batch(2 * W), acc3 = batch(3 * W);
  const auto kernel_fold = [&] {
    for (int e = 4 * W; e < full; e += 4 * W) {
      acc0 = Traits::kernel(acc0, batch(e));
      acc1 = Traits::kernel(acc1, batch(e + W));
      acc2 = Traits::kernel(acc2, batch(e + 2 * W));
      acc3 = Traits::kernel(acc3, batch(e + 3 * W));
    }
  };
  if constexpr (requires { Traits::extremum_is_max; }) {
    // A max or min: the instruction's (which returns one operand where either is NaN),
    // beside a sum of the elements, NaN where a NaN was added (or +inf and -inf were): two
    // instructions a batch, where the kernel's NaN-propagating selects took seven
    // (logsumexp's max ran at 6x the hand loop's). Where that sum is NaN, the kernel's fold.
    constexpr auto step = [](const B& acc, const B& x) {
      if constexpr (Traits::extremum_is_max)
        return xsimd::max(x, acc);
      else
        return xsimd::min(x, acc);
    };
    B probe0 = acc0, probe1 = acc1, probe2 = acc2, probe3 = acc3;
    for (int e = 4 * W; e < full; e += 4 * W) {
      const B x0 = batch(e), x1 = batch(e + W), x2 = batch(e + 2 * W), x3 = batch(e + 3 * W);
      acc0 = step(acc0, x0), probe0 += x0;
      acc1 = step(acc1, x1), probe1 += x1;
      acc2 = step(acc2, x2), probe2 += x2;
      acc3 = step(acc3, x3), probe3 += x3;
    }
    if (xsimd::any(xsimd::isnan((probe0 + probe1) + (probe2 + probe3)))) {
      acc0 = batch(0), acc1 = batch(W), acc2 = batch(2 * W), acc3 = batch(3 * W);
      kernel_fold();
    }
  } else {
    kernel_fold();
  }
  T r = fold_lanes<Traits>(Traits::kernel(Traits::kernel(acc0, acc1), Traits::kernel(acc2, acc3)));
  for (int e = full; e < N; ++e) r = Traits::kernel(r, one(e));
  return r;
}

/// The same over the N numbers at `in`.
template <class Traits, int N, class T>
CALX_INLINE T reduce_batches(const T* in) {
  return fold_batches<Traits, N, T>([&](int e) { return xsimd::batch<T>::load_unaligned(in + e); },
                                    [&](int e) { return in[e]; });
}
#endif

}  // namespace detail
CALX_END_NAMESPACE

#endif // CALX_DETAIL_TENSOR_ELEMENTWISE_BATCHES_HPP
