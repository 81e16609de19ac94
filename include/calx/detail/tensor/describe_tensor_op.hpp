/// @file detail/tensor/describe_tensor_op.hpp
/// @brief From a user's tensor op to its `op_info`: `describe_tensor_op<Op, A...>` describes
/// `Op` on operands of tensor types `A...`, so that its rules, written on traced tensors, know
/// their operands' shapes as types. Its kernel on tensors of numbers becomes a statement over
/// whole values (`statement_f64`), its rules thunks over node ids, as describe.hpp does for
/// scalar ops. calx/tensor_op.hpp is the public side; docs/extending.md shows one.
#ifndef CALX_DETAIL_TENSOR_DESCRIBE_TENSOR_OP_HPP
#define CALX_DETAIL_TENSOR_DESCRIBE_TENSOR_OP_HPP

#include <calx/detail/internal_header_check.hpp>

#include <calx/detail/ir/graph.hpp>
#include <calx/detail/ir/op_info.hpp>
#include <calx/detail/ops/describe.hpp>
#include <calx/detail/tensor/ir_ops.hpp>
#include <calx/detail/tensor/tracing.hpp>
#include <calx/op_traits.hpp>

#include <algorithm>
#include <cstddef>
#include <optional>
#include <tuple>
#include <type_traits>
#include <utility>

CALX_BEGIN_NAMESPACE
namespace detail {

/// What the op's shape rule says of operands of types `A...` (nullopt: it rejects them).
template <class Op, class... A>
constexpr std::optional<shape> rule_shape = op_traits<Op>::result_shape(dims_v<A>...);

template <class Op, class... A>
struct result_shape_of {
  static constexpr shape value = *rule_shape<Op, A...>;
};

/// The result's tensor type: the first operand's element type, the rule's shape.
template <class Op, class... A>
using tensor_op_result_t = tensor_of_t<typename tensor_traits<first_type_t<A...>>::value_type, result_shape_of<Op, A...>>;

template <class A>
struct dims_of_type {
  static constexpr shape value = dims_v<A>;
};
/// `A` with element type `T` (a tensor of numbers, where the kernel runs).
template <class T, class A>
using retyped_t = tensor_of_t<T, dims_of_type<A>>;

template <class Op, class... A>
struct tensor_rule_probe {
  using R = tensor_op_result_t<Op, A...>;
  static constexpr bool kernel = requires(const retyped_t<double, A>&... x) { op_traits<Op>::kernel(x...); };
  static constexpr bool jvp = requires(const R& y, const A&... x) { op_traits<Op>::jvp(y, x..., x...); };
  static constexpr bool vjp = requires(const R& y, const A&... x) { op_traits<Op>::vjp(y, y, x...); };
  static constexpr bool decomposition = requires(const A&... x) { op_traits<Op>::decomposition(x...); };
};

/// The node id of a rule's result: a traced tensor of the expected shape `Want` (a tensor
/// of numbers becomes constants). A result of another shape is refused by `Op`'s name.
template <class Op, class Want, class X>
constexpr int rule_result_id(graph& g, const X& x) {
  static_assert(tensor_type<X> && dims_v<X> == dims_v<Want>,
                "calx: a tensor op's rule returned a value whose shape is not the operand's (jvp: the "
                "result's; vjp: each operand's); the op is the template argument above");
  return tensor_access::id_in(g, x);
}

template <class Op, class... A>
constexpr void tensor_jvp_thunk(graph& g, const int* y, const int* x, const int* t, int* out) {
  using R = tensor_op_result_t<Op, A...>;
  out[0] = [&]<int... I>(std::integer_sequence<int, I...>) {
    return rule_result_id<Op, R>(g, op_traits<Op>::jvp(tensor_access::make_traced<R>(&g, y[0]),
                                                       tensor_access::make_traced<A>(&g, x[I])...,
                                                       tensor_access::make_traced<A>(&g, t[I])...));
  }(std::make_integer_sequence<int, sizeof...(A)>{});
}

template <class Op, class... A>
constexpr void tensor_vjp_thunk(graph& g, const int* ct, const int* y, const int* x, int* out) {
  using R = tensor_op_result_t<Op, A...>;
  [&]<int... I>(std::integer_sequence<int, I...>) {
    const auto cts = op_traits<Op>::vjp(tensor_access::make_traced<R>(&g, ct[0]), tensor_access::make_traced<R>(&g, y[0]),
                                        tensor_access::make_traced<A>(&g, x[I])...);
    static_assert(std::tuple_size_v<std::remove_cvref_t<decltype(cts)>> == sizeof...(A), CALX_MSG_VJP_RULE_COUNT);
    ((out[I] = rule_result_id<Op, A>(g, std::get<I>(cts))), ...);
  }(std::make_integer_sequence<int, sizeof...(A)>{});
}

template <class Op, class... A>
constexpr void tensor_decompose_thunk(graph& g, const int* x, int* out) {
  using R = tensor_op_result_t<Op, A...>;
  out[0] = [&]<int... I>(std::integer_sequence<int, I...>) {
    return rule_result_id<Op, R>(g, op_traits<Op>::decomposition(tensor_access::make_traced<A>(&g, x[I])...));
  }(std::make_integer_sequence<int, sizeof...(A)>{});
}

/// The kernel on numbers of type `T`: operands copied into tensors, the result copied out.
template <class Op, class T, class... A>
void tensor_statement_thunk(const T* const* in, T* out) {
  [&]<std::size_t... I>(std::index_sequence<I...>) {
    std::tuple<retyped_t<T, A>...> x;
    ((std::copy_n(in[I], retyped_t<T, A>::size, tensor_access::elements(std::get<I>(x)))), ...);
    auto y = op_traits<Op>::kernel(std::get<I>(x)...);
    std::copy_n(tensor_access::elements(y), decltype(y)::size, out);
  }(std::index_sequence_for<A...>{});
}

/// A user tensor op's `op_extras`: its statement on numbers (when its traits give a
/// kernel) and the report of device code, which cannot run it.
template <class Op, class... A>
constexpr op_extras make_tensor_op_extras() {
  op_extras e;
  e.no_device_kernel = &device_code_needs_a_builtin_op_or_op_traits_decomposition_for<Op>;
  if constexpr (tensor_rule_probe<Op, A...>::kernel) {
    e.statement_f32 = &tensor_statement_thunk<Op, float, A...>;
    e.statement_f64 = &tensor_statement_thunk<Op, double, A...>;
  }
  return e;
}
template <class Op, class... A>
inline constexpr op_extras tensor_op_extras_of = make_tensor_op_extras<Op, A...>();

template <class Op, class... A>
constexpr op_info describe_tensor_op() {
  using traits = op_traits<Op>;
  using probe = tensor_rule_probe<Op, A...>;
  op_info i;
  i.name = traits::name;
  i.arity = traits::arity;
  i.hash = name_hash(traits::name) * 31u + static_cast<unsigned>(traits::arity);
  i.broadcasts = false;
  i.sets_shape = true;
  i.extras = &tensor_op_extras_of<Op, A...>;
  if constexpr (requires { traits::linear_in; }) i.linear_in = traits::linear_in;
  if constexpr (requires { traits::jointly_linear; }) i.jointly_linear = traits::jointly_linear;
  if constexpr (probe::decomposition) i.decompose = &tensor_decompose_thunk<Op, A...>;
  if constexpr (probe::jvp) {
    i.jvp = &tensor_jvp_thunk<Op, A...>;
    i.jvp_from = rule_source::own;
  } else {
    i.jvp = &forward_mode_needs_op_traits_jvp_or_decomposition_for<Op>;
    i.jvp_from = probe::decomposition ? rule_source::decomposition : rule_source::missing;
  }
  if constexpr (probe::vjp) {
    i.vjp = &tensor_vjp_thunk<Op, A...>;
    i.vjp_from = rule_source::own;
  } else {
    i.vjp = &reverse_mode_needs_op_traits_vjp_or_decomposition_for<Op>;
    i.vjp_from = probe::decomposition ? rule_source::decomposition : rule_source::missing;
  }
  i.batch_from = probe::decomposition ? batch_kernel::decomposition
                 : probe::kernel      ? batch_kernel::lanes
                                      : batch_kernel::missing;
  return i;
}

}  // namespace detail
CALX_END_NAMESPACE

#endif  // CALX_DETAIL_TENSOR_DESCRIBE_TENSOR_OP_HPP
