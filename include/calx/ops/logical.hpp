/// @file ops/logical.hpp
/// @brief Logical operations on masks (what comparisons give): the ops `and`, `or` and
/// `not`, with kernels on bool, xsimd masks and device code, and `calx::logical_and`,
/// `calx::logical_or`, `calx::logical_not` and the operators `&&` / `&`, `||` / `|`,
/// `!` / `~` on traced masks, as NumPy and JAX write them. A mask has no derivative, so
/// these ops have no rules: they only choose (through `where`, `cond` or a `while_loop`
/// predicate) where the derivative flows. On tensors of masks, and `calx::any` /
/// `calx::all`: tensor/logical.hpp.
#ifndef CALX_OPS_LOGICAL_HPP
#define CALX_OPS_LOGICAL_HPP

#include <calx/config.hpp>
#include <calx/math.hpp>
#include <calx/op_traits.hpp>
#include <calx/ops/arithmetic.hpp>
#include <calx/tracer.hpp>

#include <concepts>
#include <type_traits>

CALX_BEGIN_NAMESPACE

namespace detail {

/// A mask that is not a tensor: a traced comparison, or a plain bool.
template <class A>
concept scalar_mask = std::same_as<std::remove_cvref_t<A>, bool_tracer> || std::same_as<std::remove_cvref_t<A>, bool>;

/// A tensor of masks (`calx::tensor<bool, ...>`), traced or of plain bools.
template <class A>
concept mask_tensor = tensor_type<A> && std::is_same_v<typename tensor_traits<std::remove_cvref_t<A>>::value_type, bool>;

/// An operand of a logical op.
template <class A>
concept mask_operand = scalar_mask<A> || mask_tensor<A>;

/// A plain truth value: a bool, or an integer (`a & b` on plain bools is an int), as a
/// function written for masks gives when it runs on plain numbers.
template <class A>
concept plain_truth = std::integral<std::remove_cvref_t<A>>;

/// Whether node `id` is the mask constant `v`.
constexpr bool is_mask_constant(const auto& g, int id, bool v) {
  return g.is_constant(id) && (g.nodes[id].value != 0.0) == v;
}

/// The node of a scalar mask in `g`: a traced mask's own, a plain bool's mask constant.
constexpr int mask_id(graph&, const bool_tracer& m) { return m.id; }
constexpr int mask_id(graph& g, bool b) { return g.constant(b ? 1.0 : 0.0, value_kind::boolean); }

/// `Op` on scalar masks: a node where one is traced, else the kernel's bool.
template <class Op, class... A>
constexpr std::conditional_t<(std::same_as<A, bool_tracer> || ...), bool_tracer, bool> scalar_mask_apply(const A&... a) {
  if constexpr ((std::same_as<A, bool_tracer> || ...)) {
    graph* g = common_graph(a...);
    int in[sizeof...(A)] = {mask_id(*g, a)...};
    return bool_tracer{g, emit_op(*g, ref_of<Op>(), in)};
  } else {
    return static_cast<bool>(op_traits<Op>::kernel(a...));
  }
}

/// `Op` elementwise on masks at least one of which is a tensor, broadcast (defined in
/// tensor/logical.hpp, which calx/tensor.hpp includes).
template <class Op, class... A>
constexpr auto tensor_mask_apply(const A&... a);

}  // namespace detail

namespace detail {
/// The traits `and` and `or` share: `Absorbing` is the constant that decides alone (false
/// for and, true for or); the other constant leaves the other operand.
template <bool Absorbing>
struct mask_binary_op {
  static constexpr int arity = 2;
  static constexpr value_kind result = value_kind::boolean;
  static constexpr unsigned mask_operands = 0b11;
  static constexpr int simplify(auto& g, int* in) {
    for (int k = 0; k < 2; ++k)
      if (g.is_constant(in[k])) return is_mask_constant(g, in[k], Absorbing) ? in[k] : in[1 - k];
    if (in[0] == in[1]) return in[0];
    sort_operands(in);
    return no_simplification;
  }
};
}  // namespace detail

template <>
struct op_traits<and_op> : detail::mask_binary_op<false> {
  static constexpr const char* name = "and";
  template <class M>
  CALX_HOST_DEVICE static constexpr auto kernel(const M& a, const M& b) { return a && b; }  // bool or a SIMD mask
};

template <>
struct op_traits<or_op> : detail::mask_binary_op<true> {
  static constexpr const char* name = "or";
  template <class M>
  CALX_HOST_DEVICE static constexpr auto kernel(const M& a, const M& b) { return a || b; }
};

template <>
struct op_traits<not_op> {
  static constexpr const char* name = "not";
  static constexpr int arity = 1;
  static constexpr detail::value_kind result = detail::value_kind::boolean;
  static constexpr unsigned mask_operands = 0b1;
  template <class M>
  CALX_HOST_DEVICE static constexpr auto kernel(const M& a) { return !a; }
  static constexpr int simplify(auto& g, int* in) {
    if (g.is_constant(in[0])) return g.constant(detail::is_mask_constant(g, in[0], true) ? 0.0 : 1.0, detail::value_kind::boolean);
    if (g.is_builtin(in[0], detail::builtin_code_v<not_op>)) return g.operand(in[0], 0);  // !!x is x
    return detail::no_simplification;
  }
};

/// `calx::logical_and(a, b)`, `calx::logical_or(a, b)`, `calx::logical_not(a)`: on traced
/// masks a node, on plain bools a bool, on tensors of masks elementwise with NumPy
/// broadcasting (a scalar mask beside a tensor is broadcast).
template <class Op>
struct logical_fn {
  template <class... A>
    requires(sizeof...(A) == op_traits<Op>::arity && (detail::scalar_mask<A> && ...))
  constexpr auto operator()(const A&... a) const {
    return detail::scalar_mask_apply<Op>(a...);
  }
  template <class... A>
    requires(sizeof...(A) == op_traits<Op>::arity && (detail::plain_truth<A> && ...) && !(detail::scalar_mask<A> && ...))
  CALX_HOST_DEVICE constexpr bool operator()(const A&... a) const {
    return static_cast<bool>(op_traits<Op>::kernel(static_cast<bool>(a)...));
  }
  template <class... A>
    requires(sizeof...(A) == op_traits<Op>::arity && (detail::mask_operand<A> && ...) && (detail::mask_tensor<A> || ...))
  constexpr auto operator()(const A&... a) const {
    return detail::tensor_mask_apply<Op>(a...);
  }
};

inline constexpr logical_fn<and_op> logical_and{};
inline constexpr logical_fn<or_op> logical_or{};
inline constexpr logical_fn<not_op> logical_not{};

// The operators on traced scalar masks (a plain bool beside one is a constant). `&&` and
// `||` evaluate both sides, as on NumPy arrays: a traced mask has no value to short-circuit on.
namespace detail {
template <class A, class B>
concept traced_mask_pair = scalar_mask<A> && scalar_mask<B> && (std::same_as<A, bool_tracer> || std::same_as<B, bool_tracer>);
}  // namespace detail

template <class A, class B>
  requires detail::traced_mask_pair<A, B>
constexpr bool_tracer operator&&(const A& a, const B& b) { return logical_and(a, b); }
template <class A, class B>
  requires detail::traced_mask_pair<A, B>
constexpr bool_tracer operator&(const A& a, const B& b) { return logical_and(a, b); }
template <class A, class B>
  requires detail::traced_mask_pair<A, B>
constexpr bool_tracer operator||(const A& a, const B& b) { return logical_or(a, b); }
template <class A, class B>
  requires detail::traced_mask_pair<A, B>
constexpr bool_tracer operator|(const A& a, const B& b) { return logical_or(a, b); }
constexpr bool_tracer operator!(const bool_tracer& a) { return logical_not(a); }
constexpr bool_tracer operator~(const bool_tracer& a) { return logical_not(a); }

// Arithmetic on a traced mask: one message naming the fix (see mask_used_as_number).
namespace detail {
template <class A, class B>
concept mask_beside_number = (std::same_as<A, bool_tracer> && (real_operand<B> || std::same_as<B, bool_tracer>)) ||
                             (real_operand<A> && std::same_as<B, bool_tracer>);
}  // namespace detail

// Two masks give a mask (a + b as a || b; a * b, a - b and a / b as a && b), a mask and a
// number a number: what the expression is then used as adds no second error.
#define CALX_MASK_ARITHMETIC(sym, Op, BothMasks)                               \
  template <class A, class B>                                                  \
    requires detail::mask_beside_number<A, B>                                  \
  constexpr std::conditional_t<std::same_as<A, B>, bool_tracer,              \
                               detail::real_result_t<detail::number_of_t<A>, detail::number_of_t<B>>> \
  operator sym(const A& a, const B& b) {                                       \
    detail::mask_used_as_number<Op, A, B>();                                   \
    if constexpr (std::same_as<A, B>)                                          \
      return BothMasks(a, b);                                                  \
    else                                                                       \
      return detail::mask_as_number(a) sym detail::mask_as_number(b);          \
  }
CALX_MASK_ARITHMETIC(+, add_op, logical_or)
CALX_MASK_ARITHMETIC(-, sub_op, logical_and)
CALX_MASK_ARITHMETIC(*, mul_op, logical_and)
CALX_MASK_ARITHMETIC(/, div_op, logical_and)
#undef CALX_MASK_ARITHMETIC
template <std::same_as<bool_tracer> M>
constexpr tracer operator-(const M& a) {
  detail::mask_used_as_number<neg_op, M>();
  return -detail::mask_as_number(a);
}

CALX_END_NAMESPACE

#endif  // CALX_OPS_LOGICAL_HPP
