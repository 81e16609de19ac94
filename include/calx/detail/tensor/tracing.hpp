/// @file detail/tensor/tracing.hpp
/// @brief How a `calx::tensor` computes and records: its shape as a value (`dims_v`), the
/// broadcast checks that name both shapes, and `tensor_access`, which reads a tensor's
/// numbers or its node and records an op on traced operands (`tensor_apply`,
/// `tensor_op_call`). The public class is calx/tensor_type.hpp; these are its internals.
#ifndef CALX_DETAIL_TENSOR_TRACING_HPP
#define CALX_DETAIL_TENSOR_TRACING_HPP

#include <calx/detail/internal_header_check.hpp>

#include <calx/detail/ir/graph.hpp>
#include <calx/detail/ir/shape.hpp>
#include <calx/detail/ops/describe.hpp>
#include <calx/detail/tensor/ir_ops.hpp>
#include <calx/detail/returned.hpp>
#include <calx/math.hpp>
#include <calx/tracer.hpp>
#include <calx/tree.hpp>

#include <cstddef>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

CALX_BEGIN_NAMESPACE

template <class T, std::size_t... Dims>
class tensor;

namespace detail {

template <class T, std::size_t... D>
struct tensor_traits<tensor<T, D...>> {
  static constexpr bool is_tensor = true;
  using value_type = T;
  static constexpr shape dims = [] {
    shape s{};
    ((s.extent[s.rank++] = static_cast<std::int32_t>(D)), ...);
    return s;
  }();
};

/// The shape of a tensor operand (scalars: rank 0).
template <class X>
constexpr shape dims_v = [] {
  if constexpr (tensor_type<X>)
    return tensor_traits<std::remove_cvref_t<X>>::dims;
  else
    return shape{};
}();

/// The tensor type with element type `T` of shape `S::value` (a type holding the shape:
/// g++ 12 fails on shapes as template arguments).
template <class T, class S, class I = std::make_index_sequence<static_cast<std::size_t>(S::value.rank)>>
struct tensor_of;
template <class T, class S, std::size_t... I>
struct tensor_of<T, S, std::index_sequence<I...>> {
  using type = tensor<T, static_cast<std::size_t>(S::value.extent[I])...>;
};
template <class T, class S>
using tensor_of_t = typename tensor_of<T, S>::type;

// Shape checks report through a function template whose template arguments name the
// offending types (the compiler prints them with the message), called only where the check
// failed: the op then returns zeros of its result type, so tracing goes on and the message
// is the only error. (A class template's failed static_assert would make its `value`
// unusable on clang, and so give follow-on errors.)

/// Always false; what a failed shape check asserts, so that clang's "requirement" line
/// names the tensors too.
template <class... X>
inline constexpr bool tensor_shapes_ok = false;
template <class X, int... I>
inline constexpr bool tensor_axes_ok = false;

/// Shapes that NumPy broadcasting cannot combine; the instantiation names both.
template <class A, class B>
constexpr void shapes_broadcast() {
  static_assert(tensor_shapes_ok<A, B>, "calx: these tensor shapes do not broadcast (NumPy rule: trailing axes "
                                       "equal, or one of them 1); the shapes are the template arguments above");
}

template <class... A>
constexpr shape common_shape() {
  shape s{};
  ((s = broadcast_shapes(s, dims_v<A>).s), ...);
  return s;
}

template <class... A>
struct common_shape_of {
  static constexpr shape value = common_shape<A...>();
};

/// The first pair (i < j) of operands whose shapes do not broadcast; {0, 0} if none.
template <class... A>
constexpr std::pair<std::size_t, std::size_t> broadcast_failure() {
  const shape s[] = {dims_v<A>...};
  for (std::size_t i = 0; i < sizeof...(A); ++i)
    for (std::size_t j = i + 1; j < sizeof...(A); ++j)
      if (!broadcast_shapes(s[i], s[j]).ok) return {i, j};
  return {0, 0};
}
template <class... A>
constexpr bool operands_broadcast() {
  return broadcast_failure<A...>().second == 0;
}
/// Reports the first pair of operands that do not broadcast.
template <class... A>
constexpr void report_broadcast() {
  using all = std::tuple<std::remove_cvref_t<A>...>;
  constexpr auto bad = broadcast_failure<A...>();
  shapes_broadcast<std::tuple_element_t<bad.first, all>, std::tuple_element_t<bad.second, all>>();
}

template <class T0, class... R>
struct first_type {
  using type = T0;
};
template <class... X>
using first_type_t = typename first_type<X...>::type;

template <class X>
struct element_of {
  using type = void;
};
template <tensor_type X>
struct element_of<X> {
  using E = typename tensor_traits<std::remove_cvref_t<X>>::value_type;
  using type = std::conditional_t<std::is_floating_point_v<E>, E, void>;  // masks do not decide
};
/// The precision of an elementwise op's operands: the first float or double tensor's (else
/// double).
template <class... A>
using tensor_value_t = typename first_non_void<typename element_of<A>::type..., double>::type;

/// What operand `x` is converted to for a scalar kernel: a mask stays bool.
template <class X>
constexpr bool is_mask_tensor() {
  if constexpr (tensor_type<X>)
    return std::is_same_v<typename tensor_traits<std::remove_cvref_t<X>>::value_type, bool>;
  else
    return false;
}
template <class T, class X>
using kernel_operand_t = std::conditional_t<is_mask_tensor<X>(), bool, T>;

/// Reads and records tensors (a friend of calx::tensor).
struct tensor_access {
  template <class X>
  static constexpr graph* graph_of(const X& x) {
    if constexpr (tensor_type<X>)
      return x.graph_;
    else if constexpr (traced<X>)
      return x.graph;
    else
      return nullptr;
  }
  /// The node of operand `x` in `g`: its own, a constant, or a pack of a tensor's numbers.
  template <class X>
  static constexpr int id_in(graph& g, const X& x) {
    if constexpr (tensor_type<X>) {
      if (x.graph_ != nullptr) return x.id_;
      constexpr shape s = dims_v<X>;
      if constexpr (is_mask_tensor<X>())
        trace_error("calx: a mask tensor of plain bools beside traced values (compare traced tensors instead)");
      std::vector<int> e(static_cast<std::size_t>(s.size()), -1);
      for (int k = 0; k < s.size(); ++k) e[static_cast<std::size_t>(k)] = g.constant(static_cast<double>(x.storage_.elems[k]));
      const int p = pack(g, e.data(), s);
      return p < 0 ? broadcast_to(g, g.constant(0.0), s) : p;
    } else {
      return operand_id(&g, x);
    }
  }
  template <class X>
  static constexpr int own_id(const X& x) {
    return x.id_;
  }
  template <class R>
  static constexpr R make_traced(graph* g, int id) {
    // A symbolic zero as a node: tensors are never "zero-valued" tracers.
    return R(typename R::traced_node{g, id < 0 ? broadcast_to(*g, g->constant(0.0), dims_v<R>) : id});
  }
  template <class X>
  static constexpr auto element(const X& x, int e) {
    if constexpr (tensor_type<X>)
      return x.storage_.elems[e];
    else
      return x;
  }
  template <class X>
  static constexpr auto* elements(X& x) {
    return x.storage_.elems;
  }
};

template <class... A>
constexpr graph* tensor_graph(const A&... a) {
  graph* g = nullptr;
  ((g = g != nullptr ? g : tensor_access::graph_of(a)), ...);
  return g;
}

/// Whether an operand of `Op` that takes a number is a mask tensor.
template <class Op, class... A>
constexpr bool mask_where_number() {
  unsigned i = 0;
  bool bad = false;
  ((bad = bad || (is_mask_tensor<A>() && ((mask_operands_v<Op> >> i) & 1u) == 0), ++i), ...);
  return bad;
}

/// Elementwise `Op` on tensors and scalars, broadcast (docs/tensors.md).
template <class Op, class... A>
constexpr auto tensor_apply(const A&... a) {
  using T = tensor_value_t<A...>;
  constexpr shape s = common_shape<A...>();
  constexpr bool mask = result_v<Op> == value_kind::boolean;
  using R = tensor_of_t<std::conditional_t<mask, bool, T>, common_shape_of<A...>>;
  graph* g = tensor_graph(a...);
  if constexpr (mask_where_number<Op, A...>()) {
    mask_used_as_number<Op, A...>();
    return R{};  // zeros stand in: the message is the only error
  } else if constexpr (!operands_broadcast<A...>()) {
    report_broadcast<A...>();
    return R{};  // zeros stand in: the message is the only error
  } else if constexpr ((traced<A> || ...)) {  // beside a traced scalar: always recorded
    if (g == nullptr) trace_error("calx internal: a traced scalar without a trace");
  } else if (g == nullptr) {
    return returned<R>([&](R& r) {
      auto* out = tensor_access::elements(r);
      for (int e = 0; e < s.size(); ++e)
        out[e] = apply<Op>(static_cast<kernel_operand_t<T, A>>(tensor_access::element(a, broadcast_source_index(dims_v<A>, s, e)))...);
    });
  }
  int in[sizeof...(A)] = {tensor_access::id_in(*g, a)...};
  return tensor_access::make_traced<R>(g, emit_op(*g, ref_of<Op>(), in));
}

/// A tensor op with its own code on numbers (`compute(in..., out)`) and its node otherwise.
template <class R, class Record, class Compute, class... A>
constexpr R tensor_op_call(Record record, Compute compute, const A&... a) {
  if (graph* g = tensor_graph(a...)) return tensor_access::make_traced<R>(g, record(*g, tensor_access::id_in(*g, a)...));
  return returned<R>([&](R& r) { compute(tensor_access::elements(r), tensor_access::elements(const_cast<A&>(a))...); });
}

/// `x`'s elements, row major, as a tensor of type `R` (of the same size): a reshape node.
template <class R, class X>
constexpr R reshaped(const X& x) {
  return tensor_op_call<R>([](graph& g, int id) { return reshape(g, id, dims_v<R>); },
                           [](auto* out, const auto* in) {
                             for (std::size_t e = 0; e < R::size; ++e) out[e] = in[e];
                           },
                           x);
}

}  // namespace detail

CALX_END_NAMESPACE

#endif  // CALX_DETAIL_TENSOR_TRACING_HPP
