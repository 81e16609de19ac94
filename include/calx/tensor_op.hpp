/// @file tensor_op.hpp
/// @brief User tensor ops. A tensor op is a tag type with an `op_traits` specialisation, as
/// a scalar op is, plus a shape rule; `calx::tensor_op_fn<Op>` calls it. Members:
/// - `name`, `arity`;
/// - `result_shape(calx::shape x...)`: the result's shape from the operands' (constexpr),
///   or `std::nullopt` for shapes the op does not take: one compile error naming the op
///   and both operands' tensor types;
/// - `kernel(x...)`: the op on tensors of numbers (float and double), returning the result
///   tensor; generated code runs it on each sample's values (SIMD: lane by lane);
/// - `jvp(y, x..., t...)`, `vjp(ct, y, x...)` (a tuple or array of operand cotangents),
///   `decomposition(x...)`: written on traced tensors, as a scalar op's are on tracers.
/// A rule the op lacks comes from its decomposition; without either, the transform that
/// needs it fails naming the op. On traced tensors the op is one IR node however many
/// elements it has. docs/extending.md ("A tensor op") shows one.
#ifndef CALX_TENSOR_OP_HPP
#define CALX_TENSOR_OP_HPP

#include <calx/config.hpp>
#include <calx/detail/tensor/describe_tensor_op.hpp>
#include <calx/math.hpp>
#include <calx/op_traits.hpp>
#include <calx/tensor_type.hpp>

#include <concepts>
#include <cstdint>
#include <optional>
#include <type_traits>

CALX_BEGIN_NAMESPACE

/// A tensor's shape, as a tensor op's shape rule sees it: `rank`, `x[a]` the extent of axis a.
using shape = detail::shape;

/// The shape with these extents (at most 4).
template <std::integral... E>
  requires(sizeof...(E) <= detail::max_rank)
constexpr shape shape_of(E... extent) {
  shape s{};
  ((s.extent[s.rank++] = static_cast<std::int32_t>(extent)), ...);
  return s;
}

namespace detail {

/// Reached only where a tensor op's shape rule returned nullopt.
template <class Op, class... A>
constexpr void tensor_op_shape_rule_rejects() {
  static_assert(tensor_shapes_ok<Op, A...>,
                "calx: this tensor op's shape rule (op_traits<Op>::result_shape) rejects these operand shapes; the "
                "op and the operands' tensor types are the template arguments above");
}
template <class Op, class... A>
constexpr void tensor_op_takes_tensors_of_numbers() {
  static_assert(tensor_shapes_ok<Op, A...>,
                "calx: a tensor op's operands are calx::tensor values of float or double (a scalar: "
                "calx::tensor<T>; a mask: calx::where first); the op and the operand types are the template "
                "arguments above");
}

template <class... A>
constexpr bool real_tensors_v = ((tensor_type<A> && !is_mask_tensor<A>()) && ...);

template <class Op, class... A>
constexpr bool tensor_op_accepts() {
  if constexpr (real_tensors_v<A...>)
    return rule_shape<Op, A...>.has_value();
  else
    return false;
}

/// What `tensor_op_fn<Op>` returns (declared, not deduced: deducing would describe the op
/// while its own rules, which call it, are checked). A refused call returns a rank-0 tensor.
template <class Op, class... A>
struct tensor_op_call_result {
  using type = tensor<double>;
};
template <class Op, class... A>
  requires(tensor_op_accepts<Op, A...>())
struct tensor_op_call_result<Op, A...> {
  using type = tensor_op_result_t<Op, A...>;
};

/// Records `Op(a...)` on traced tensors (one node), or runs its kernel (else its
/// decomposition) on tensors of numbers.
template <class Op, class... A>
constexpr typename tensor_op_call_result<Op, A...>::type tensor_op_apply(const A&... a) {
  using R = typename tensor_op_call_result<Op, A...>::type;
  if constexpr (!real_tensors_v<A...>) {
    tensor_op_takes_tensors_of_numbers<Op, A...>();
    return R{};  // zeros stand in: the message is the only error
  } else if constexpr (!tensor_op_accepts<Op, A...>()) {
    tensor_op_shape_rule_rejects<Op, A...>();
    return R{};
  } else if (graph* g = tensor_graph(a...)) {
    int in[sizeof...(A)] = {tensor_access::id_in(*g, a)...};
    return tensor_access::make_traced<R>(g, emit_tensor(*g, &describe_tensor_op<Op, A...>, in, static_cast<int>(sizeof...(A)), {}, dims_v<R>));
  } else if constexpr (tensor_rule_probe<Op, A...>::kernel) {
    return op_traits<Op>::kernel(a...);
  } else {
    return op_traits<Op>::decomposition(a...);
  }
}

}  // namespace detail

/// A callable for user tensor op `Op`: `inline constexpr calx::tensor_op_fn<cumsum_op> cumsum{};`.
template <class Op>
struct tensor_op_fn {
  template <class... A>
    requires(detail::arity_matches_v<Op, A...>)  // dependent on A: the traits may come later
  constexpr typename detail::tensor_op_call_result<Op, std::remove_cvref_t<A>...>::type operator()(const A&... a) const {
    return detail::tensor_op_apply<Op, std::remove_cvref_t<A>...>(a...);
  }
};

CALX_END_NAMESPACE

#endif  // CALX_TENSOR_OP_HPP
