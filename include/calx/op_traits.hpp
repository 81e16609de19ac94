/// @file op_traits.hpp
/// @brief `calx::op_traits<Op>`: the static description of a primitive (name, arity, kernel,
/// jvp and vjp rules, simplification), and the tags of calx's built-in primitives.
///
/// An op is an empty tag type. Its traits specialise `op_traits<Op>` with
/// - `name` and `arity`, and `result` (`value_kind::real` or `value_kind::boolean`);
/// - `kernel(x...)`: evaluation for float, double, xsimd batches and tracers' constants;
/// - `jvp(y, x..., t...)`: the output tangent, a traced function of the output `y`, the
///   primals and their tangents (a tangent may be a symbolic zero);
/// - `vjp(ct, y, x...)`: a `std::array` of input cotangents, written the same way;
/// - optionally `simplify(g, in)`: constant folding and identities at emission time;
/// - batching: elementwise ops need no rule (the batch pass maps them over the batch);
///   ops across the batch declare `reduces_batch` (their result is not per sample);
/// - `decomposition`: reserved for ops defined by other ops (the decomposition issue);
///   today every built-in op has its own rules.
/// Each rule is a named concept below; a transform that reaches an op without the rule it
/// needs fails to compile with a message naming the op type.
#ifndef CALX_OP_TRAITS_HPP
#define CALX_OP_TRAITS_HPP

#include <calx/config.hpp>
#include <calx/detail/graph.hpp>
#include <calx/detail/type_list.hpp>

CALX_BEGIN_NAMESPACE

namespace detail {
/// Base of the primary `op_traits`: "not an op" is modelled by deriving from it.
struct default_rule {};
}  // namespace detail

/// Specialise for each primitive; the primary template marks "not an op".
template <class Op>
struct op_traits : detail::default_rule {};

/// An op is a tag type with a specialised `op_traits`.
template <class Op>
concept primitive = !std::is_base_of_v<detail::default_rule, op_traits<Op>>;

// The built-in primitives. Their traits live in calx/ops/<family>.hpp.
struct input_op {};
struct constant_op {};
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
struct where_op {};
struct stop_gradient_op {};
struct batch_sum_op {};
struct broadcast_op {};
struct batch_size_op {};

namespace detail {
/// Every op the IR can name; a node's `op` is an index into this list. Order is ABI of
/// the IR only within one build, so it may change freely.
using op_registry =
    type_list<input_op, constant_op, add_op, sub_op, mul_op, div_op, neg_op, pow_op, exp_op, log_op,
              log1p_op, expm1_op, sqrt_op, rsqrt_op, sin_op, cos_op, tan_op, tanh_op, sigmoid_op,
              abs_op, sign_op, erf_op, erfc_op, atan2_op, min_op, max_op, lt_op, le_op, gt_op, ge_op,
              eq_op, ne_op, where_op, stop_gradient_op, batch_sum_op,
              broadcast_op, batch_size_op>;

template <class Op>
inline constexpr std::uint16_t opcode_v = static_cast<std::uint16_t>(index_of_v<op_registry, Op>);

template <std::size_t Code>
using op_at_t = at_t<op_registry, Code>;

static_assert(opcode_v<input_op> == input_opcode && opcode_v<constant_op> == constant_opcode);
}  // namespace detail

CALX_END_NAMESPACE

#endif // CALX_OP_TRAITS_HPP
