/// @file math.hpp
/// @brief calx's math: `calx::sin`, `calx::where`, ... and the arithmetic operators on
/// traced values. Each is one routing layer: on traced values it records an IR node, on
/// plain float and double it runs the op's kernel, so a user's function also runs untransformed.
#ifndef CALX_MATH_HPP
#define CALX_MATH_HPP

#include <calx/config.hpp>
#include <calx/detail/ops/describe.hpp>
#include <calx/op_traits.hpp>
#include <calx/tracer.hpp>

#include <type_traits>

CALX_BEGIN_NAMESPACE

namespace detail {

template <class... A>
using plain_result_t = std::conditional_t<std::is_floating_point_v<std::common_type_t<A...>>,
                                          std::common_type_t<A...>, double>;

template <class Op, class... A>
struct traced_result {
  using type = std::conditional_t<std::is_same_v<traced_result_t<Op>, tracer>, real_result_t<A...>, traced_result_t<Op>>;
};

/// What `op_fn<Op>` gives for operands `A...`: a traced value, or a plain number. (The op's
/// traits are looked at only once `A...` are known: `op_fn<Op>` objects are declared
/// before the traits of calx's own ops.)
template <class... A>
struct plain_result {
  using type = void;  // no common type: the call is refused by op_fn's constraints
};
template <class... A>
  requires requires { typename std::common_type<A...>::type; }
struct plain_result<A...> {
  using type = plain_result_t<A...>;
};
template <class Op, class... A>
using apply_result_t = typename std::conditional_t<(traced<A> || ...), traced_result<Op, A...>, plain_result<A...>>::type;

/// Records `Op` on traced operands; on plain numbers, runs its kernel or else its
/// decomposition. Every function that records ops declares its return type: deducing it
/// would instantiate op descriptors while their own rules are being checked.
template <class Op, class... A>
CALX_HOST_DEVICE constexpr apply_result_t<Op, A...> apply(const A&... a) {
  if constexpr ((traced<A> || ...)) {
    return apply_result_t<Op, A...>(emit<Op>(a...));
  } else {
    using T = plain_result_t<A...>;
    if constexpr (requires { op_traits<Op>::kernel(static_cast<T>(a)...); })
      return static_cast<T>(op_traits<Op>::kernel(static_cast<T>(a)...));
    else
      return static_cast<T>(op_traits<Op>::decomposition(static_cast<T>(a)...));
  }
}

// A variable template keeps the op's traits unneeded until a call (they are defined
// after this header).
template <class Op, class... A>
inline constexpr bool arity_matches_v = sizeof...(A) == op_traits<Op>::arity;

/// The type of a constant in a decomposition whose operand is of type X: the operand's own
/// precision on plain numbers (so that `calx::sinh(1.0f)` computes in float, as a traced
/// float program does), double on traced values (the IR keeps its constants in double).
template <class X>
using constant_t =
    std::conditional_t<std::is_floating_point_v<std::remove_cvref_t<X>>, std::remove_cvref_t<X>, double>;

}  // namespace detail

namespace detail {
/// Tensors (calx/tensor.hpp): every op of calx applies to them elementwise.
template <class X>
struct tensor_traits {
  static constexpr bool is_tensor = false;
};
template <class X>
concept tensor_type = tensor_traits<std::remove_cvref_t<X>>::is_tensor;
template <class Op, class... A>
constexpr auto tensor_apply(const A&... a);
/// Ops that also reduce a tensor when given one (`calx::max(t)`, `calx::max(t, calx::axis<1>)`).
template <class Op>
inline constexpr bool reduces_tensors = std::is_same_v<Op, max_op> || std::is_same_v<Op, min_op>;
template <class Op, class X, class... Axis>
constexpr auto tensor_reduce(const X& x, const Axis&... axis);
template <class A>
concept tensor_operand = tensor_type<A> || trace_operand<A>;

/// Reports a mask used as a number by op `Op` (`Operands`: the call's operand types, so
/// that the check waits for a call): one message. The caller goes on with the mask as 1 or
/// 0 (`mask_as_number`), so that tracing completes and adds no error. g++ reports a failed
/// static_assert in a function again each time a constant expression evaluates it, so there
/// it sits in a class named in `sizeof`; clang cannot evaluate that `sizeof`, but reports a
/// function's once.
template <class Op, class... Operands>
struct mask_used_as_number_by {
  static_assert(always_false_v<Op>, CALX_MSG_MASK_AS_NUMBER);
};
template <class Op, class... Operands>
constexpr void mask_used_as_number() {
#if defined(__clang__)
  static_assert(always_false_v<mask_used_as_number_by<Op, Operands...>>, CALX_MSG_MASK_AS_NUMBER);
#else
  (void)sizeof(mask_used_as_number_by<Op, Operands...>);
#endif
}
/// A traced mask as the number 1 or 0; any other operand as it is. Return types are
/// declared, so that a requires-expression on a call with a mask does not instantiate the
/// call (the call is well-formed: it is reported when made).
template <class X>
using number_of_t = std::conditional_t<std::same_as<X, bool_tracer>, tracer, X>;
template <class X>
constexpr number_of_t<X> mask_as_number(const X& x) {
  if constexpr (std::same_as<X, bool_tracer>)
    return emit<where_op>(x, 1.0, 0.0);
  else
    return x;
}
}  // namespace detail

/// A real operand of a traced expression: a tracer or a plain number.
template <class T>
concept real_operand = real_tracer<T> || number<T>;

/// The function object of an op: `calx::sin`, `calx::pow`, ..., and a user's own
/// (`inline constexpr calx::op_fn<softplus_op> softplus{};`). Real operands, real result.
template <class Op>
struct op_fn {
  template <trace_operand... A>
    requires(detail::arity_matches_v<Op, A...> && ((!std::same_as<A, bool_tracer>) && ...))
  CALX_HOST_DEVICE constexpr detail::apply_result_t<Op, A...> operator()(const A&... a) const {
    return detail::apply<Op>(a...);
  }
  /// A traced mask where the op takes a number: one message (see mask_used_as_number).
  template <class... A>
    requires(detail::arity_matches_v<Op, A...> && (std::same_as<A, bool_tracer> || ...) &&
             ((trace_operand<A> || std::same_as<A, bool_tracer>) && ...))
  constexpr detail::apply_result_t<Op, detail::number_of_t<A>...> operator()(const A&... a) const {
    detail::mask_used_as_number<Op, A...>();
    return detail::apply<Op>(detail::mask_as_number(a)...);
  }
  /// On tensors (and scalars beside them): elementwise, with NumPy broadcasting.
  template <detail::tensor_operand... A>
    requires(detail::arity_matches_v<Op, A...> && (detail::tensor_type<A> || ...))
  constexpr auto operator()(const A&... a) const {
    return detail::tensor_apply<Op>(a...);
  }
  /// `calx::max(t)`, `calx::min(t, calx::axis<0>)`: a tensor reduced (a rank-0 tensor over
  /// every axis).
  template <detail::tensor_type X, class... Axis>
    requires(detail::reduces_tensors<Op> && sizeof...(Axis) <= 1 && !(detail::tensor_operand<Axis> || ...))
  constexpr auto operator()(const X& x, const Axis&... axis) const {
    return detail::tensor_reduce<Op>(x, axis...);
  }
};

/// `calx::where(cond, a, b)`: `a` where `cond` holds, else `b`. The traced replacement for
/// `cond ? a : b`. Under differentiation the cotangent flows only into the chosen branch,
/// but a NaN or inf produced in the branch not taken still poisons `0 * inf`: guard the
/// input of that branch too (the "double where" idiom, see docs/transforms.md).
struct where_fn {
  /// On tensors: elementwise, with NumPy broadcasting (a mask tensor comes from comparing
  /// tensors).
  template <detail::tensor_operand C, detail::tensor_operand A, detail::tensor_operand B>
    requires(detail::tensor_type<C> || detail::tensor_type<A> || detail::tensor_type<B>)
  constexpr auto operator()(const C& c, const A& a, const B& b) const {
    return detail::tensor_apply<where_op>(c, a, b);
  }
  /// A plain predicate may be any integer: `a & b` on plain bools is an int.
  template <class C, real_operand A, real_operand B>
    requires(std::same_as<C, bool_tracer> || std::integral<C>)
  CALX_HOST_DEVICE constexpr detail::apply_result_t<where_op, C, A, B> operator()(const C& c, const A& a,
                                                                                 const B& b) const {
    if constexpr (traced<C> || traced<A> || traced<B>) {
      if constexpr (std::integral<C>) {
        detail::graph* g = detail::common_graph(a, b);
        int id = c ? detail::operand_id(g, a) : detail::operand_id(g, b);
        return detail::apply_result_t<where_op, C, A, B>(tracer{id < 0 ? nullptr : g, id});
      } else {
        return detail::apply<where_op>(c, a, b);
      }
    } else {
      using T = detail::plain_result_t<A, B>;
      return c ? static_cast<T>(a) : static_cast<T>(b);
    }
  }
};

inline constexpr op_fn<pow_op> pow{};
inline constexpr op_fn<exp_op> exp{};
inline constexpr op_fn<log_op> log{};
inline constexpr op_fn<log1p_op> log1p{};
inline constexpr op_fn<expm1_op> expm1{};
inline constexpr op_fn<sqrt_op> sqrt{};
inline constexpr op_fn<rsqrt_op> rsqrt{};
inline constexpr op_fn<sin_op> sin{};
inline constexpr op_fn<cos_op> cos{};
inline constexpr op_fn<tan_op> tan{};
inline constexpr op_fn<tanh_op> tanh{};
inline constexpr op_fn<sigmoid_op> sigmoid{};
inline constexpr op_fn<abs_op> abs{};
inline constexpr op_fn<sign_op> sign{};
inline constexpr op_fn<erf_op> erf{};
inline constexpr op_fn<erfc_op> erfc{};
inline constexpr op_fn<atan2_op> atan2{};
inline constexpr op_fn<min_op> min{};
inline constexpr op_fn<max_op> max{};
inline constexpr op_fn<stop_gradient_op> stop_gradient{};
inline constexpr op_fn<exp2_op> exp2{};
inline constexpr op_fn<log2_op> log2{};
inline constexpr op_fn<log10_op> log10{};
inline constexpr op_fn<cbrt_op> cbrt{};
inline constexpr op_fn<sinh_op> sinh{};
inline constexpr op_fn<cosh_op> cosh{};
inline constexpr op_fn<asinh_op> asinh{};
inline constexpr op_fn<acosh_op> acosh{};
inline constexpr op_fn<atanh_op> atanh{};
inline constexpr op_fn<asin_op> asin{};
inline constexpr op_fn<acos_op> acos{};
inline constexpr op_fn<atan_op> atan{};
inline constexpr op_fn<hypot_op> hypot{};
inline constexpr op_fn<square_op> square{};
inline constexpr op_fn<reciprocal_op> reciprocal{};
inline constexpr op_fn<softplus_op> softplus{};
inline constexpr op_fn<logaddexp_op> logaddexp{};
inline constexpr op_fn<clamp_op> clamp{};
inline constexpr op_fn<relu_op> relu{};
inline constexpr where_fn where{};

/// A `bool` beside a tracer: refused. The deleted overload is needed because the tracer's
/// poisoned conversion to double (the std::sin message) would otherwise make clang take
/// the built-in `double + int` for `x + true`.
template <class A, class B>
concept tracer_with_bool = (real_tracer<A> && std::same_as<B, bool>) || (std::same_as<A, bool> && real_tracer<B>);

// The result type is spelled out: naming traced_result_t<add_op> here would need the op's
// traits, which are defined after this header.
#define CALX_TRACED_BINARY(sym, Op, ...)                                              \
  template <real_operand A, real_operand B>                                           \
    requires(real_tracer<A> || real_tracer<B>)                                        \
  constexpr __VA_ARGS__ operator sym(const A& a, const B& b) {                        \
    return __VA_ARGS__(detail::emit<Op>(a, b));                                       \
  }                                                                                   \
  template <class A, class B>                                                         \
    requires tracer_with_bool<A, B>                                                   \
  __VA_ARGS__ operator sym(const A&, const B&) = delete;

CALX_TRACED_BINARY(+, add_op, detail::real_result_t<A, B>)
CALX_TRACED_BINARY(-, sub_op, detail::real_result_t<A, B>)
CALX_TRACED_BINARY(*, mul_op, detail::real_result_t<A, B>)
CALX_TRACED_BINARY(/, div_op, detail::real_result_t<A, B>)
CALX_TRACED_BINARY(<, lt_op, bool_tracer)
CALX_TRACED_BINARY(<=, le_op, bool_tracer)
CALX_TRACED_BINARY(>, gt_op, bool_tracer)
CALX_TRACED_BINARY(>=, ge_op, bool_tracer)
CALX_TRACED_BINARY(==, eq_op, bool_tracer)
CALX_TRACED_BINARY(!=, ne_op, bool_tracer)
#undef CALX_TRACED_BINARY

template <real_tracer T>
constexpr T operator-(const T& a) { return T(detail::emit<neg_op>(a)); }
template <real_tracer T>
constexpr T operator+(const T& a) { return a; }

namespace detail {
/// What `x op= b` takes on a tracer: a number or a traced value; a traced mask too, so that
/// `x += (x > 0)` is the one message `x + (x > 0)` gives (calx/ops/logical.hpp).
template <class B>
concept compound_operand = real_operand<B> || std::same_as<B, bool_tracer>;
}  // namespace detail

template <detail::compound_operand B>
constexpr tracer& operator+=(tracer& a, const B& b) { return a = a + b; }
template <detail::compound_operand B>
constexpr tracer& operator-=(tracer& a, const B& b) { return a = a - b; }
template <detail::compound_operand B>
constexpr tracer& operator*=(tracer& a, const B& b) { return a = a * b; }
template <detail::compound_operand B>
constexpr tracer& operator/=(tracer& a, const B& b) { return a = a / b; }

CALX_END_NAMESPACE

#endif // CALX_MATH_HPP
