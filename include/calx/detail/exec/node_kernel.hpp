/// @file detail/exec/node_kernel.hpp
/// @brief `node_kernel<IR, J>(get, e)`: element e of node J of a constexpr IR, computed from
/// element e of its operands, which `get(operand_c<Id>, e)` returns. Every backend
/// (straight-line code, the stages of the batched executor, CUDA kernels) evaluates nodes
/// through `statement_of` or `plain_statement_of` (detail/exec/tensor_statement.hpp), whose `node_statement` calls a
/// built-in op of one to three operands itself and this helper for the other elementwise ops.
/// A built-in op's kernel is named by its type (`op->builtin`), so it runs on any value type,
/// device code included; a user op's scalar kernel is a constant function pointer in its
/// `op_info`, a direct, inlinable call on the host (on SIMD batches, lane by lane). Device
/// code must not call through it: a device backend lowers user ops by their decompositions
/// first (`expand_for::simd`), as the SIMD loop does.
#ifndef CALX_DETAIL_EXEC_NODE_KERNEL_HPP
#define CALX_DETAIL_EXEC_NODE_KERNEL_HPP

#include <calx/detail/internal_header_check.hpp>

#include <calx/detail/ir/graph.hpp>
#include <calx/detail/ir/ir.hpp>
#include <calx/detail/exec/all_ops.hpp>
#include <calx/op_traits.hpp>

#include <cstddef>
#include <type_traits>
#include <utility>

CALX_BEGIN_NAMESPACE
namespace detail {

/// The mask type that goes with a value type: bool for scalars, the batch's own mask
/// type (e.g. xsimd::batch_bool) for SIMD batches.
template <class T>
struct mask_of {
  using type = decltype(std::declval<const T&>() < std::declval<const T&>());
};
template <class T>
using mask_t = typename mask_of<T>::type;

/// A user op's scalar kernel on each lane of SIMD batches `a` (no decomposition to batch).
template <const auto& IR, std::size_t J, class B>
[[gnu::noinline]] B lanes_kernel(const B* a) {
  using T = typename B::value_type;
  constexpr int arity = IR.nodes[J].arity;
  alignas(64) T in[arity][B::size];
  alignas(64) T out[B::size];
  for (int i = 0; i < arity; ++i) a[i].store_aligned(in[i]);
  for (std::size_t l = 0; l < B::size; ++l) {
    T x[arity];
    for (int i = 0; i < arity; ++i) x[i] = in[i][l];
    if constexpr (std::is_same_v<T, float>) {
      constexpr auto k = IR.nodes[J].op().extra().kernel_f32;
      out[l] = k(x);
    } else {
      constexpr auto k = IR.nodes[J].op().extra().kernel_f64;
      out[l] = k(x);
    }
  }
  return B::load_aligned(out);
}

/// A user op's scalar kernel on operand values `a` (numbers, or SIMD batches lane by lane).
template <const auto& IR, std::size_t J, class T>
CALX_HOST_DEVICE CALX_INLINE T user_kernel(const T* a) {
  static_assert(IR.nodes[J].op().extra().kernel_f64 != nullptr, "calx internal: an op without kernel reached codegen unexpanded");
  if constexpr (std::is_same_v<T, float>) {
    constexpr auto k = IR.nodes[J].op().extra().kernel_f32;
    return k(a);
  } else if constexpr (std::is_same_v<T, double>) {
    constexpr auto k = IR.nodes[J].op().extra().kernel_f64;
    return k(a);
  } else {
    return lanes_kernel<IR, J>(a);
  }
}

/// Element e of node J (an elementwise op, not an input or a constant) from element e of
/// its operands, `get(operand_c<Id>{}, e)`. `node_statement` (detail/exec/tensor_statement.hpp)
/// calls a built-in op of up to three operands itself, and this for the others: a user op
/// (through `user_kernel`) or a built-in op of more operands.
template <const auto& IR, std::size_t J, class Get>
CALX_HOST_DEVICE CALX_INLINE auto node_kernel(const Get& get, int e) {
  constexpr node n = IR.nodes[J];
  static_assert(n.kind != value_kind::tuple && n.op().builtin != builtin_code::get,
                "calx internal: an op with several results reached codegen without a results kernel");
  return [&]<int... I>(std::integer_sequence<int, I...>) CALX_INLINE_LAMBDA {
    using T = std::remove_cvref_t<decltype(get(operand_c<IR.operand(J, 0)>{}, e))>;
    if constexpr (n.op().builtin >= 0) {
      using traits = op_traits<builtin_at_t<static_cast<std::size_t>(n.op().builtin)>>;
      return traits::kernel(get(operand_c<IR.operand(J, I)>{}, e)...);
    } else {
      const T a[] = {get(operand_c<IR.operand(J, I)>{}, e)...};
      return user_kernel<IR, J>(a);
    }
  }(std::make_integer_sequence<int, n.arity>{});
}

}  // namespace detail
CALX_END_NAMESPACE

#endif // CALX_DETAIL_EXEC_NODE_KERNEL_HPP
