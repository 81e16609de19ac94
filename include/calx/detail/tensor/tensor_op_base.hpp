/// @file detail/tensor/tensor_op_base.hpp
/// @brief What the built-in tensor ops share (detail/tensor/ir_ops.hpp, the ops of static
/// shape, and detail/tensor/index_ops.hpp, those indexed by runtime values): their common
/// traits, the signature of their rules on node ids, how one is recorded, a zero of any
/// value type their statements write (where an entry along an axis lies: `axis_geometry`,
/// detail/ir/shape.hpp).
#ifndef CALX_DETAIL_TENSOR_TENSOR_OP_BASE_HPP
#define CALX_DETAIL_TENSOR_TENSOR_OP_BASE_HPP

#include <calx/detail/internal_header_check.hpp>

#include <calx/detail/ir/graph.hpp>
#include <calx/detail/ir/op_info.hpp>
#include <calx/detail/ir/shape.hpp>

#include <array>
#include <cstdint>
#include <type_traits>

CALX_BEGIN_NAMESPACE
namespace detail {

/// A zero of value type V (a number or a SIMD batch).
template <class V>
CALX_HOST_DEVICE CALX_INLINE V zero_of() {
  if constexpr (std::is_arithmetic_v<V>)
    return V(0);
  else
    return V(typename V::value_type(0));
}

/// What the traits of every built-in tensor op say: codegen runs its `statement` (the whole
/// value), not a `kernel` per element; one result, whose shape and attributes are set where
/// it is recorded (so a pass replays the node as it is); operands that do not broadcast to
/// one shape; a symbolic zero in, a symbolic zero out.
struct tensor_op_traits {
  static constexpr bool whole_value = true;
  static constexpr int outputs = 1;
  static constexpr bool broadcasts = false;
  static constexpr bool sets_shape = true;
  static constexpr bool zero_preserving = true;
};
/// A rule on node ids, as `op_info` holds it.
using rule_ids_fn = void(graph&, const int*, const int*, const int*, int*);

/// A tensor op node on operands `in` with attributes `attr` and shape `dims`.
constexpr int emit_tensor(graph& g, op_ref op, const int* in, int arity, std::array<std::int32_t, 3> attr, shape dims) {
  node n;
  n.op = op;
  n.arity = arity;
  n.attr = attr;
  n.dims = dims;
  n.kind = value_kind::real;
  return emit_like(g, n, in);
}

}  // namespace detail
CALX_END_NAMESPACE

#endif  // CALX_DETAIL_TENSOR_TENSOR_OP_BASE_HPP
