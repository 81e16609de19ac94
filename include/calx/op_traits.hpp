/// @file op_traits.hpp
/// @brief `calx::op_traits<Op>`: the static description of an op, and the tags of calx's
/// built-in ops. An op is an empty tag type; specialising `op_traits` for it, in calx or in
/// a user's own code, makes it an op of every program (docs/extending.md).
///
/// Members (only `name` and `arity` are required):
/// - `name`, `arity`; `result` (`value_kind::real`, the default, or `value_kind::boolean`);
/// - `kernel(x...)`: evaluation, a template for float and double (and, for ops that run in
///   SIMD loops with their own code, xsimd batches);
/// - `jvp(y, x..., t...)`: the output tangent, a traced function of the output `y`, the
///   operands and their tangents (a tangent may be a symbolic zero);
/// - `vjp(ct, y, x...)`: a `std::array` of operand cotangents, written the same way;
/// - `decomposition(x...)`: the op written with other ops; a transform that needs a rule
///   the op lacks transforms the decomposition, and SIMD loops run it when the kernel does
///   not take batches;
/// - `simplify(g, in)`: constant folding and identities at emission time (built-ins);
///   written as a template (`auto& g`), like every rule: a non-template member function
///   body is compiled where the traits are defined, before the rules it reaches exist;
/// - `zero_preserving`, `batch_role`, `mask_operands`, `linear_in`, `jointly_linear`: flags
///   that built-in ops use (see detail/ir/op_info.hpp).
/// Every rule is resolved the same way: the op's own, else the transform of its
/// decomposition, else a compile error naming the op and the rule.
#ifndef CALX_OP_TRAITS_HPP
#define CALX_OP_TRAITS_HPP

#include <calx/config.hpp>
#include <calx/detail/ir/op_info.hpp>
#include <calx/detail/type_list.hpp>

#include <type_traits>

CALX_BEGIN_NAMESPACE

namespace detail {
/// Base of the primary `op_traits`: "not an op" is modelled by deriving from it.
struct default_rule {};
}  // namespace detail

/// Specialise for each op; the primary template marks "not an op".
template <class Op>
struct op_traits : detail::default_rule {};

/// An op is a tag type with a specialised `op_traits` that names it and gives its arity.
template <class Op>
concept primitive = !std::is_base_of_v<detail::default_rule, op_traits<Op>> && requires {
  { op_traits<Op>::name } -> std::convertible_to<const char*>;
  { op_traits<Op>::arity } -> std::convertible_to<int>;
};

// The built-in ops. Their traits live in calx/ops/<family>.hpp.
struct input_op {};
struct constant_op {};
struct get_op {};
struct add_op {};
struct sub_op {};
struct mul_op {};
struct div_op {};
struct neg_op {};
struct pow_op {};
struct exp_op {};
struct log_op {};
struct log1p_op {};
struct expm1_op {};
struct sqrt_op {};
struct rsqrt_op {};
struct exp2_op {};
struct log2_op {};
struct log10_op {};
struct cbrt_op {};
struct sin_op {};
struct cos_op {};
struct tan_op {};
struct tanh_op {};
struct sigmoid_op {};
struct abs_op {};
struct sign_op {};
struct erf_op {};
struct erfc_op {};
struct atan2_op {};
struct min_op {};
struct max_op {};
struct lt_op {};
struct le_op {};
struct gt_op {};
struct ge_op {};
struct eq_op {};
struct ne_op {};
struct and_op {};
struct or_op {};
struct not_op {};
struct where_op {};
struct stop_gradient_op {};
struct batch_sum_op {};
struct broadcast_op {};
struct batch_size_op {};

// Built-in ops written with the ops above: each is one IR node when traced, and codegen
// lowers it to its decomposition (so they are not in `builtin_ops`). Their traits live in
// calx/ops/hyperbolic.hpp, inverse_trigonometric.hpp, powers.hpp and smooth.hpp.
struct sinh_op {};
struct cosh_op {};
struct asinh_op {};
struct acosh_op {};
struct atanh_op {};
struct asin_op {};
struct acos_op {};
struct atan_op {};
struct hypot_op {};
struct square_op {};
struct reciprocal_op {};
struct softplus_op {};
struct logaddexp_op {};
struct clamp_op {};
struct relu_op {};

// The tensor ops: one node per op however many elements it has; its attributes (an axis, a
// contraction, slice bounds) are the node's, its shape set where it is recorded. Their
// traits, rules on node ids and a statement over whole values, live in
// detail/tensor/ir_ops.hpp; `calx::tensor_op_fn` is how a user adds one.
struct broadcast_in_dim_op {};
struct reduce_sum_op {};
struct reduce_max_op {};
struct reduce_min_op {};
struct tensordot_op {};
struct transpose_op {};
struct reshape_op {};
struct slice_op {};
struct pad_op {};
struct index_op {};
struct pack_op {};
// Indexed by runtime values (detail/tensor/index_ops.hpp).
struct gather_op {};
struct scatter_add_op {};
struct dynamic_slice_op {};
struct dynamic_pad_op {};

namespace detail {
/// The ops whose kernels or statements codegen calls by type, for every value type and
/// backend (float, double, xsimd batches, CUDA device code): a node's `op->builtin` indexes
/// this list, and the device op table is this list. Every other op (user ops,
/// decomposition-only built-ins, custom rules) is lowered to these by its decomposition, or
/// runs its kernel through `op_info`. The first three are structural (inputs, constants,
/// results of tuple ops); the tensor ops (`tensor_builtin_ops`) come last.
using builtin_ops =
    type_list<input_op, constant_op, get_op, add_op, sub_op, mul_op, div_op, neg_op, pow_op, exp_op, log_op,
              log1p_op, expm1_op, sqrt_op, rsqrt_op, exp2_op, log2_op, log10_op, cbrt_op, sin_op, cos_op, tan_op,
              tanh_op, sigmoid_op, abs_op, sign_op, erf_op, erfc_op, atan2_op, min_op, max_op, lt_op, le_op, gt_op,
              ge_op, eq_op, ne_op, and_op, or_op, not_op, where_op, stop_gradient_op, batch_sum_op, broadcast_op,
              batch_size_op, broadcast_in_dim_op, reduce_sum_op, reduce_max_op, reduce_min_op, tensordot_op,
              transpose_op, reshape_op, slice_op, pad_op, index_op, pack_op, gather_op, scatter_add_op,
              dynamic_slice_op, dynamic_pad_op>;

/// The built-in tensor ops, the tail of `builtin_ops` (their laws are tests/tensor.laws.cpp's).
using tensor_builtin_ops = type_list<broadcast_in_dim_op, reduce_sum_op, reduce_max_op, reduce_min_op, tensordot_op,
                                     transpose_op, reshape_op, slice_op, pad_op, index_op, pack_op, gather_op, scatter_add_op,
              dynamic_slice_op, dynamic_pad_op>;
/// Whether `Op` is one of them (rules on node ids and a statement of its own).
template <class Op>
inline constexpr bool is_tensor_builtin_v = find_v<tensor_builtin_ops, Op> >= 0;

/// The built-in ops defined by a decomposition (declared above), for tools that list every
/// op calx ships (tools/op_coverage.cpp writes docs/ops.md from both lists).
using decomposed_ops = type_list<sinh_op, cosh_op, asinh_op, acosh_op, atanh_op, asin_op, acos_op, atan_op, hypot_op,
                                 square_op, reciprocal_op, softplus_op, logaddexp_op, clamp_op, relu_op>;

template <std::size_t Code>
using builtin_at_t = at_t<builtin_ops, Code>;

/// The `builtin` code of a built-in op (-1 for any other op).
template <class Op>
inline constexpr int builtin_code_v = find_v<builtin_ops, Op>;

static_assert(std::is_same_v<builtin_at_t<0>, input_op> && std::is_same_v<builtin_at_t<1>, constant_op> &&
              std::is_same_v<builtin_at_t<2>, get_op> &&
              std::is_same_v<builtin_at_t<builtin_code::broadcast_in_dim>, broadcast_in_dim_op> &&
              std::is_same_v<builtin_at_t<builtin_code::reduce_sum>, reduce_sum_op> &&
              std::is_same_v<builtin_at_t<builtin_code::reduce_max>, reduce_max_op> &&
              std::is_same_v<builtin_at_t<builtin_code::reduce_min>, reduce_min_op> &&
              std::is_same_v<builtin_at_t<builtin_code::tensordot>, tensordot_op> &&
              std::is_same_v<builtin_at_t<builtin_code::reshape>, reshape_op> &&
              std::is_same_v<builtin_at_t<builtin_code::slice>, slice_op> &&
              std::is_same_v<builtin_at_t<builtin_code::pad>, pad_op>);
}  // namespace detail

CALX_END_NAMESPACE

#endif // CALX_OP_TRAITS_HPP
