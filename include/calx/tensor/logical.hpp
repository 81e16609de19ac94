/// @file tensor/logical.hpp
/// @brief Masks of tensors (`calx::tensor<bool, ...>`, what comparing tensors gives):
/// `&`, `|`, `~` (and `&&`, `||`, `!`, elementwise as on NumPy arrays),
/// `calx::logical_and` / `logical_or` / `logical_not` on them, and `calx::any` /
/// `calx::all` over every axis or one. The ops are those of ops/logical.hpp.
#ifndef CALX_TENSOR_LOGICAL_HPP
#define CALX_TENSOR_LOGICAL_HPP

#include <calx/config.hpp>
#include <calx/ops/logical.hpp>
#include <calx/tensor/reductions.hpp>
#include <calx/tensor_type.hpp>

#include <concepts>
#include <type_traits>

CALX_BEGIN_NAMESPACE

namespace detail {

/// The node of mask operand `x` in `g` (a tensor of plain bools beside traced values is
/// refused by `id_in`, with its message).
template <class X>
constexpr int mask_node(graph& g, const X& x) {
  if constexpr (mask_tensor<X>)
    return tensor_access::id_in(g, x);
  else
    return mask_id(g, x);
}

template <class Op, class... A>
constexpr auto tensor_mask_apply(const A&... a) {
  using R = tensor_of_t<bool, common_shape_of<A...>>;
  constexpr shape s = common_shape<A...>();
  if constexpr (!operands_broadcast<A...>()) {
    report_broadcast<A...>();
    return R{};  // the message is the only error
  } else {
    graph* g = tensor_graph(a...);
    // A traced scalar mask means a trace; only without one may the tensors be plain bools
    // (converting a bool_tracer to bool, even in code that does not run, is an error).
    if constexpr (!(std::same_as<A, bool_tracer> || ...)) {
      if (g == nullptr)
        return returned<R>([&](R& r) {
          auto* out = tensor_access::elements(r);
          for (int e = 0; e < s.size(); ++e)
            out[e] = static_cast<bool>(
                op_traits<Op>::kernel(static_cast<bool>(tensor_access::element(a, broadcast_source_index(dims_v<A>, s, e)))...));
        });
    }
    int in[sizeof...(A)] = {mask_node(*g, a)...};
    return tensor_access::make_traced<R>(g, emit_op(*g, ref_of<Op>(), in));
  }
}

template <class A, class B>
concept mask_tensor_pair = mask_operand<A> && mask_operand<B> && (mask_tensor<A> || mask_tensor<B>);

}  // namespace detail

#define CALX_MASK_TENSOR_BINARY(sym, Op)                   \
  template <class A, class B>                              \
    requires detail::mask_tensor_pair<A, B>                \
  constexpr auto operator sym(const A& a, const B& b) {    \
    return detail::tensor_mask_apply<Op>(a, b);            \
  }
CALX_MASK_TENSOR_BINARY(&, and_op)
CALX_MASK_TENSOR_BINARY(&&, and_op)
CALX_MASK_TENSOR_BINARY(|, or_op)
CALX_MASK_TENSOR_BINARY(||, or_op)
#undef CALX_MASK_TENSOR_BINARY

template <detail::mask_tensor X>
constexpr auto operator~(const X& x) {
  return detail::tensor_mask_apply<not_op>(x);
}
template <detail::mask_tensor X>
constexpr auto operator!(const X& x) {
  return detail::tensor_mask_apply<not_op>(x);
}

namespace detail {
/// `calx::any` (with `max_op`) and `calx::all` (`min_op`): whether some (every) element of
/// a mask tensor holds, over every axis (a rank-0 tensor<bool>, a predicate for `where`,
/// `cond` and `while_loop`) or over `calx::axis<A>`. Written with ops that exist: the
/// greatest (least) of the mask as 1 and 0, compared with 1/2 (three nodes). Over no
/// elements, any is false and all is true, as in NumPy. A scalar mask is its own any and all.
template <class Reduce>
struct mask_reduce_fn {
  template <mask_tensor X, class... Axis>
    requires(sizeof...(Axis) <= 1 && !(tensor_operand<Axis> || ...))
  constexpr auto operator()(const X& m, const Axis&... axis) const {
    return op_fn<Reduce>{}(calx::where(m, 1.0, 0.0), axis...) > 0.5;
  }
  template <scalar_mask X>
  constexpr X operator()(const X& m) const {
    return m;
  }
};
}  // namespace detail

inline constexpr detail::mask_reduce_fn<max_op> any{};
inline constexpr detail::mask_reduce_fn<min_op> all{};

CALX_END_NAMESPACE

#endif  // CALX_TENSOR_LOGICAL_HPP
