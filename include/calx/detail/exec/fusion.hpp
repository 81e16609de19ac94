/// @file detail/exec/fusion.hpp
/// @brief Fusion of elementwise chains in straight-line code over tensors of numbers (32
/// elements or more): a built-in elementwise op whose only reader is another elementwise op
/// of its size or a sum, max or min of every element, and a scalar broadcast read only by
/// such ops, are not written out; the op that reads them computes them in its own loop,
/// element by element (xsimd batches of elements on the host), from the values they read.
/// `exp(x - max(x)) * 2` is then one loop that reads x once and writes one tensor, where
/// node by node it was five loops and five tensors. The IR keeps one node per op (its
/// printed text, its passes); fusion is codegen only.
///
/// Which nodes fuse is decided with the registers (`fusion_inside`, `allocate_slots`,
/// detail/ir/ir.hpp): a fused node gets none, and what it reads keeps its register until
/// the loop that computes it has run. This header is the statements' side.
#ifndef CALX_DETAIL_EXEC_FUSION_HPP
#define CALX_DETAIL_EXEC_FUSION_HPP

#include <calx/detail/internal_header_check.hpp>

#include <calx/detail/exec/node_kernel.hpp>
#include <calx/detail/ir/graph.hpp>
#include <calx/detail/ir/ir.hpp>
#include <calx/detail/tensor/elementwise_batches.hpp>
#include <calx/detail/tensor/ir_ops.hpp>

#include <xsimd/xsimd.hpp>

#include <array>
#include <cstddef>
#include <type_traits>
#include <utility>

CALX_BEGIN_NAMESPACE
namespace detail {

/// What fusion makes of a node: run as it is, computed inside its readers' loops, or a loop
/// that computes fused operands.
enum class fused_role : unsigned char { alone, inside, loop };

/// Each node's `fused_role` in straight-line code of program `r`, as `allocate_slots` laid
/// out its registers: it gave every node a register but the fused ones (`fusion_inside`),
/// which are read back here rather than worked out again. Backends with registers of their
/// own (the SIMD executor, the device loop) fuse nothing: they take `plain_statement_of`.
template <class IR>
constexpr std::array<fused_role, IR::size> fusion_plan(const IR& r) {
  std::array<fused_role, IR::size> role{};
  for (auto& x : role) x = fused_role::alone;
  if (r.real_slots == 0) return role;  // no straight-line registers: nothing fused
  std::array<bool, IR::size> inside{};
  for (std::size_t j = 0; j < IR::size; ++j) inside[j] = r.nodes[j].slot < 0 && !r.nodes[j].is_input();
  for (std::size_t j = 0; j < IR::size; ++j)
    if (inside[j]) {
      role[j] = fused_role::inside;
    } else {
      for (int i = 0; i < r.nodes[j].arity; ++i)
        if (inside[static_cast<std::size_t>(r.operand(j, i))]) role[j] = fused_role::loop;
    }
  return role;
}

template <const auto& IR>
inline constexpr auto fusion_of = fusion_plan(IR);

/// Element(s) e of node J, a fused node or a loop, as a value of type V (a number, or an
/// xsimd batch of W consecutive elements): its fused operands computed here, the others read
/// from their registers or the inputs.
template <const auto& IR, std::size_t J, class V, class Get>
CALX_HOST_DEVICE CALX_INLINE V fused_value(const Get& get, int e);

template <const auto& IR, int A, class V, class Get>
CALX_HOST_DEVICE CALX_INLINE V fused_operand(const Get& get, int e) {
  if constexpr (fusion_of<IR>[static_cast<std::size_t>(A)] == fused_role::inside)
    return fused_value<IR, static_cast<std::size_t>(A), V>(get, e);
  else if constexpr (std::is_same_v<V, std::remove_cvref_t<decltype(get(operand_c<A>{}, e))>>)
    return get(operand_c<A>{}, e);
  else if constexpr (std::is_lvalue_reference_v<decltype(get(operand_c<A>{}, e))>)
    return V::load_unaligned(&get(operand_c<A>{}, e));  // W consecutive numbers in memory
  else {  // numbers read by value
    using T = typename V::value_type;
    alignas(64) T lanes[V::size];
    for (std::size_t l = 0; l < V::size; ++l) lanes[l] = get(operand_c<A>{}, e + static_cast<int>(l));
    return V::load_aligned(lanes);
  }
}

template <const auto& IR, std::size_t J, class V, class Get>
CALX_HOST_DEVICE CALX_INLINE V fused_value(const Get& get, int e) {
  constexpr node n = IR.nodes[J];
  if constexpr (n.op().builtin == builtin_code::broadcast_in_dim) {
    return V(get(operand_c<IR.operand(J, 0)>{}, 0));
  } else {
    using traits = op_traits<builtin_at_t<static_cast<std::size_t>(n.op().builtin)>>;
    return [&]<int... I>(std::integer_sequence<int, I...>) CALX_INLINE_LAMBDA {
      return V(traits::kernel(fused_operand<IR, IR.operand(J, I), V>(get, e)...));
    }(std::make_integer_sequence<int, n.arity>{});
  }
}

/// The traits of the scalar op reduction J folds with (its `reduction_op_traits::pick`).
template <const auto& IR, std::size_t J>
using fold_traits = op_traits<typename op_traits<builtin_at_t<static_cast<std::size_t>(IR.nodes[J].op().builtin)>>::pick>;

#ifndef __CUDA_ARCH__
/// Loop J over numbers in memory: `out[e]` for every element, W at a time.
template <const auto& IR, std::size_t J, class T, class Get>
CALX_INLINE void fused_loop(const Get& get, T* out) {
  using B = xsimd::batch<T>;
  // Constant bounds (not the first loop's end as the second's start): g++ 12 could not
  // bound the second loop's index and warned of writes past the registers.
  constexpr int size = IR.nodes[J].size(), W = static_cast<int>(B::size), full = size / W * W;
  for (int e = 0; e < full; e += W) fused_value<IR, J, B>(get, e).store_unaligned(out + e);
  for (int e = full; e < size; ++e) out[e] = fused_value<IR, J, T>(get, e);
}

/// The same out of line (one function per loop), from eight SIMD batches of elements up
/// (`elementwise_batches`' threshold): inlined into the program, the f64 gradient of
/// logsumexp of 2500 took 1.8x as long (its exp loop, the same code, ran 1.6x slower).
template <const auto& IR, std::size_t J, class T, class Get>
[[gnu::noinline]] void fused_loop_call(const Get& get, T* out) {
  fused_loop<IR, J, T>(get, out);
}

/// Reduction J of its fused operand X's elements, numbers, out of line as `fused_loop_call`.
template <const auto& IR, std::size_t J, std::size_t X, class T, class Get>
[[gnu::noinline]] T fused_fold(const Get& get) {
  return fold_batches<fold_traits<IR, J>, IR.nodes[X].size(), T>(
      [&](int e) { return fused_value<IR, X, xsimd::batch<T>>(get, e); },
      [&](int e) { return fused_value<IR, X, T>(get, e); });
}
#endif

/// Node J's statement where fusion touches it: nothing for a fused node, one loop for a
/// loop; on numbers in memory on the host, xsimd batches of elements. A reduction's loop
/// folds its operand's elements as it computes them (four batches of partial results, as
/// `reduce_batches`; left to right where fewer).
struct fused_statement {
  template <const auto& IR, std::size_t J, class Get, class Put>
  CALX_HOST_DEVICE static CALX_INLINE void statement(const Get& get, const Put& put) {
    if constexpr (fusion_of<IR>[J] == fused_role::loop && full_reduction(IR, J)) {
      constexpr std::size_t X = static_cast<std::size_t>(IR.operand(J, 0));
      using T = std::remove_cvref_t<decltype(get(operand_c<IR.operand(X, 0)>{}, 0))>;
#ifndef __CUDA_ARCH__
      if constexpr (std::is_floating_point_v<T> && IR.nodes[X].size() >= 4 * static_cast<int>(xsimd::batch<T>::size)) {
        put(0, fused_fold<IR, J, X, T>(get));
        return;
      }
#endif
      constexpr shape in = IR.nodes[X].dims;  // a constant: device code may not read IR
      reduce_loop(in, -1, [&](int e) { return fused_value<IR, X, T>(get, e); }, put,
                  [](const T& acc, const T& v) { return fold_traits<IR, J>::kernel(acc, v); });
    } else if constexpr (fusion_of<IR>[J] == fused_role::loop) {
      using A = decltype(get(operand_c<IR.operand(J, 0)>{}, 0));
      using T = std::remove_cvref_t<A>;
      constexpr int size = IR.nodes[J].size();
#ifndef __CUDA_ARCH__
      if constexpr (numbers_in_memory<A, Put>()) {
        if constexpr (size >= 8 * static_cast<int>(xsimd::batch<T>::size))
          fused_loop_call<IR, J, T>(get, put.address());
        else
          fused_loop<IR, J, T>(get, put.address());
        return;
      }
#endif
      for (int e = 0; e < size; ++e) put(e, fused_value<IR, J, T>(get, e));
    }
  }
};

}  // namespace detail
CALX_END_NAMESPACE

#endif // CALX_DETAIL_EXEC_FUSION_HPP
