/// @file detail/ops/describe.hpp
/// @brief From an op's type to its `op_info`: the typed rules of `op_traits<Op>` wrapped as
/// constexpr functions over node ids, and `emit<Op>`, which records an op on traced values.
/// This is the one place where an op's type meets the type-free IR.
#ifndef CALX_DETAIL_OPS_DESCRIBE_HPP
#define CALX_DETAIL_OPS_DESCRIBE_HPP

#include <calx/detail/internal_header_check.hpp>

#include <calx/detail/diagnostics.hpp>
#include <calx/detail/ir/graph.hpp>
#include <calx/detail/ir/op_info.hpp>
#include <calx/detail/type_list.hpp>
#include <calx/op_traits.hpp>
#include <calx/tracer.hpp>

#include <array>
#include <type_traits>
#include <utility>

CALX_BEGIN_NAMESPACE
namespace detail {

template <class Op>
constexpr int arity_v = op_traits<Op>::arity;

template <class Op>
constexpr unsigned mask_operands_v = [] {
  if constexpr (requires { op_traits<Op>::mask_operands; })
    return op_traits<Op>::mask_operands;
  else
    return 0u;
}();

template <class Op>
constexpr value_kind result_v = [] {
  if constexpr (requires { op_traits<Op>::result; })
    return op_traits<Op>::result;
  else
    return value_kind::real;
}();

/// The traced value a rule receives for operand `I` of `Op`: a mask or a real.
template <class Op, int I>
constexpr auto operand(graph& g, int id) {
  if constexpr (((mask_operands_v<Op> >> I) & 1u) != 0)
    return bool_tracer{&g, id};
  else
    return in_graph(g, id);
}
template <class Op, int I>
using operand_t = decltype(operand<Op, I>(std::declval<graph&>(), 0));

template <class Op, class Seq = std::make_integer_sequence<int, arity_v<Op>>>
struct rule_probe;
template <class Op, int... I>
struct rule_probe<Op, std::integer_sequence<int, I...>> {
  static constexpr bool jvp = requires(const tracer& t) {
    op_traits<Op>::jvp(t, std::declval<const operand_t<Op, I>&>()..., ((void)I, t)...);
  };
  static constexpr bool vjp = requires(const tracer& t) {
    op_traits<Op>::vjp(t, t, std::declval<const operand_t<Op, I>&>()...);
  };
  static constexpr bool decomposition = requires { op_traits<Op>::decomposition(std::declval<const operand_t<Op, I>&>()...); };
};

// A concept rather than a member template of rule_probe: nvcc 13 substitutes a member
// variable template's parameter into its requires-expression too early.
template <class Op, class T, class Seq = std::make_integer_sequence<int, arity_v<Op>>>
struct kernel_probe;
template <class Op, class T, int... I>
struct kernel_probe<Op, T, std::integer_sequence<int, I...>> {
  static constexpr bool value = requires(const T& x) { op_traits<Op>::kernel(((void)I, x)...); };
};

}  // namespace detail

/// The op has a forward-mode rule `op_traits<Op>::jvp(y, x..., t...)`.
template <class Op>
concept has_jvp_rule = primitive<Op> && detail::rule_probe<Op>::jvp;

/// The op has a reverse-mode rule `op_traits<Op>::vjp(ct, y, x...)`.
template <class Op>
concept has_vjp_rule = primitive<Op> && detail::rule_probe<Op>::vjp;

/// The op is written with other ops: `op_traits<Op>::decomposition(x...)`.
template <class Op>
concept has_decomposition = primitive<Op> && detail::rule_probe<Op>::decomposition;

/// The op has a scalar kernel `op_traits<Op>::kernel(x...)` for float and double.
template <class Op>
concept has_scalar_kernel = primitive<Op> && detail::kernel_probe<Op, float>::value &&
                            detail::kernel_probe<Op, double>::value;

namespace detail {

// Reaching one of these in a constant expression is the compile error for a missing rule:
// the compiler names the function, whose template argument is the op.
template <class Op>
void forward_mode_needs_op_traits_jvp_or_decomposition_for(graph&, const int*, const int*, const int*, int*) {}
template <class Op>
void reverse_mode_needs_op_traits_vjp_or_decomposition_for(graph&, const int*, const int*, const int*, int*) {}

/// The compile error for an op that reaches device code (vmap over calx::device_span)
/// without a kernel device code can call: give it `op_traits<Op>::decomposition`.
template <class Op>
void device_code_needs_a_builtin_op_or_op_traits_decomposition_for() {}
/// The same for a loop (`fori_loop`, `scan`, `while_loop`), which has no device kernel yet
/// and no decomposition to give it (docs/cuda.md, Limits): run that vmap over host memory.
template <class Op>
void device_code_has_no_loops_yet_run_this_vmap_on_host_memory_for() {}

template <class Op>
constexpr int simplify_thunk(graph& g, int* in) {
  return op_traits<Op>::simplify(g, in);
}

template <class Op>
constexpr void jvp_thunk(graph& g, const int* y, const int* x, const int* t, int* out) {
  out[0] = [&]<int... I>(std::integer_sequence<int, I...>) {
    return op_traits<Op>::jvp(in_graph(g, y[0]), operand<Op, I>(g, x[I])..., in_graph(g, t[I])...).id;
  }(std::make_integer_sequence<int, arity_v<Op>>{});
}

template <class Op>
constexpr void vjp_thunk(graph& g, const int* ct, const int* y, const int* x, int* out) {
  const auto cts = [&]<int... I>(std::integer_sequence<int, I...>) {
    return op_traits<Op>::vjp(in_graph(g, ct[0]), in_graph(g, y[0]), operand<Op, I>(g, x[I])...);
  }(std::make_integer_sequence<int, arity_v<Op>>{});
  static_assert(std::tuple_size_v<std::remove_cvref_t<decltype(cts)>> == arity_v<Op>, CALX_MSG_VJP_RULE_COUNT);
  for (int i = 0; i < arity_v<Op>; ++i) out[i] = cts[static_cast<std::size_t>(i)].id;
}

/// A decomposition's result as a node id: numbers become constants.
template <class R>
constexpr int result_id(graph& g, const R& r) {
  if constexpr (real_tracer<R>) {
    if (r.graph != nullptr && r.graph != &g) trace_error("calx: a decomposition returned a value of another trace");
    return r.id;
  } else {
    static_assert(number<R>, CALX_MSG_DECOMPOSITION_RESULT);
    return g.constant(static_cast<double>(r));
  }
}

template <class Op>
constexpr void decompose_thunk(graph& g, const int* x, int* out) {
  out[0] = [&]<int... I>(std::integer_sequence<int, I...>) {
    return result_id(g, op_traits<Op>::decomposition(operand<Op, I>(g, x[I])...));
  }(std::make_integer_sequence<int, arity_v<Op>>{});
}

template <class Op, class T>
CALX_HOST_DEVICE T kernel_thunk(const T* a) {
  return [&]<int... I>(std::integer_sequence<int, I...>) {
    return static_cast<T>(op_traits<Op>::kernel(a[I]...));
  }(std::make_integer_sequence<int, arity_v<Op>>{});
}

/// What an op that is not built in has beyond `op_info` (see `op_extras`).
template <class Op>
constexpr op_extras make_op_extras() {
  using traits = op_traits<Op>;
  op_extras e;
  e.no_device_kernel = &device_code_needs_a_builtin_op_or_op_traits_decomposition_for<Op>;
  if constexpr (requires { &traits::parameters; }) e.parameters = &traits::parameters;
  if constexpr (requires { traits::outputs; }) {
    if constexpr (requires { traits::result_dims; }) e.result_dims = traits::result_dims;
    if constexpr (requires { traits::results_kernel; }) {
      e.results = &traits::results_kernel;
      if constexpr (!requires { &traits::decompose_ids; })
        e.no_device_kernel = &device_code_has_no_loops_yet_run_this_vmap_on_host_memory_for<Op>;
    }
  } else if constexpr (result_v<Op> == value_kind::real && traits::arity > 0 && has_scalar_kernel<Op>) {
    e.kernel_f32 = &kernel_thunk<Op, float>;
    e.kernel_f64 = &kernel_thunk<Op, double>;
  }
  return e;
}
template <class Op>
inline constexpr op_extras extras_of = make_op_extras<Op>();

template <class Op>
constexpr op_info make_op_info() {
  using traits = op_traits<Op>;
  op_info i;
  i.name = traits::name;
  i.arity = traits::arity;
  i.result = result_v<Op>;
  i.mask_operands = mask_operands_v<Op>;
  i.hash = name_hash(traits::name) * 31u + static_cast<unsigned>(traits::arity);
  i.builtin = find_v<builtin_ops, Op>;
  if constexpr (find_v<builtin_ops, Op> < 0) i.extras = &extras_of<Op>;
  if constexpr (requires { traits::batch_role; }) i.role = traits::batch_role;
  if constexpr (requires { traits::zero_preserving; }) i.zero_preserving = traits::zero_preserving;
  if constexpr (requires { traits::linear_in; }) i.linear_in = traits::linear_in;
  if constexpr (requires { traits::jointly_linear; }) i.jointly_linear = traits::jointly_linear;
  if constexpr (requires { traits::calls_out_of_line; }) i.calls_out_of_line = traits::calls_out_of_line;
  if constexpr (requires(graph& g, int* in) { traits::simplify(g, in); }) i.simplify = &simplify_thunk<Op>;
  if constexpr (requires { traits::outputs; }) {
    // Rules written on node ids (custom_vjp and custom_jvp, whose operands and results are
    // the leaves of structures; the loops, whose carries are): taken as they are. Such an
    // op runs as its decomposition, or through its own `results` kernels (a loop).
    i.outputs = traits::outputs;
    if constexpr (requires { traits::broadcasts; }) i.broadcasts = traits::broadcasts;
    if constexpr (requires { traits::sets_shape; }) i.sets_shape = traits::sets_shape;
    if constexpr (requires { &traits::decompose_ids; }) i.decompose = &traits::decompose_ids;
    constexpr bool decomposes = requires { &traits::decompose_ids; };
    if constexpr (requires { &traits::jvp_ids; }) {
      i.jvp = &traits::jvp_ids;
      i.jvp_from = rule_source::own;
    } else {
      i.jvp = &forward_mode_needs_op_traits_jvp_or_decomposition_for<Op>;
      i.jvp_from = decomposes ? rule_source::decomposition : rule_source::missing;
    }
    if constexpr (requires { &traits::vjp_ids; }) {
      i.vjp = &traits::vjp_ids;
      if constexpr (requires { traits::vjp_from; })
        i.vjp_from = traits::vjp_from;
      else
        i.vjp_from = rule_source::own;
    } else {
      i.vjp = &reverse_mode_needs_op_traits_vjp_or_decomposition_for<Op>;
      i.vjp_from = decomposes ? rule_source::decomposition : rule_source::missing;
    }
    // An op whose kernel computes its results together (a loop, a cond) describes it by
    // constants (`results_kernel_info`); code generation compiles the kernel where a program
    // runs the op. Without a kernel on SIMD groups, the SIMD loop runs the op's
    // decomposition (a cond or a checkpoint: its branches written out).
    if constexpr (requires { traits::results_kernel; }) {
      i.batch_from = traits::results_kernel.lanes ? batch_kernel::own : batch_kernel::decomposition;
    } else {
      // A built-in tensor op's statement takes SIMD batches as it takes numbers.
      i.batch_from = i.builtin >= 0 ? batch_kernel::own : batch_kernel::decomposition;
    }
  } else {
    if constexpr (has_decomposition<Op>) i.decompose = &decompose_thunk<Op>;
    if constexpr (result_v<Op> == value_kind::real && traits::arity > 0) {
      if constexpr (has_jvp_rule<Op>) {
        i.jvp = &jvp_thunk<Op>;
        i.jvp_from = rule_source::own;
      } else {
        i.jvp = &forward_mode_needs_op_traits_jvp_or_decomposition_for<Op>;
        i.jvp_from = has_decomposition<Op> ? rule_source::decomposition : rule_source::missing;
      }
      if constexpr (has_vjp_rule<Op>) {
        i.vjp = &vjp_thunk<Op>;
        i.vjp_from = rule_source::own;
      } else {
        i.vjp = &reverse_mode_needs_op_traits_vjp_or_decomposition_for<Op>;
        i.vjp_from = has_decomposition<Op> ? rule_source::decomposition : rule_source::missing;
      }
    }
    constexpr bool own_kernel = result_v<Op> == value_kind::real && traits::arity > 0 && has_scalar_kernel<Op>;
    i.batch_from = i.builtin >= 0          ? batch_kernel::own
                   : has_decomposition<Op> ? batch_kernel::decomposition
                   : own_kernel            ? batch_kernel::lanes
                                           : batch_kernel::missing;
  }
  return i;
}

/// The description of op `Op` (see `op_ref`: a function, called when a pass runs).
template <class Op>
constexpr op_info describe() {
  return make_op_info<Op>();
}

/// The op a node of `Op` holds: one function per op type, shared by every translation unit.
template <class Op>
constexpr op_ref ref_of() {
  if constexpr (std::is_same_v<Op, input_op>)
    return &input_info;
  else if constexpr (std::is_same_v<Op, constant_op>)
    return &constant_info;
  else if constexpr (std::is_same_v<Op, get_op>)
    return &get_info;
  else if constexpr (std::is_same_v<Op, broadcast_in_dim_op>)
    return &broadcast_info;  // named by graph.hpp before the op's traits are seen
  else
    return &describe<Op>;
}

/// The traced value an op gives: a mask for comparisons, else a real.
template <class Op>
using traced_result_t = std::conditional_t<result_v<Op> == value_kind::boolean, bool_tracer, tracer>;

template <class Op>
constexpr traced_result_t<Op> wrap(graph* g, int id) {
  if constexpr (result_v<Op> == value_kind::boolean)
    return bool_tracer{g, id};
  else
    return tracer{id < 0 ? nullptr : g, id};
}

/// Node `id` of graph `g` as a traced value, in an op's `simplify` (a template on the graph
/// type): the call depends on `g`, so an emit<Op> around it is looked at only when the rule
/// runs, after every op's traits are defined.
template <class G>
constexpr auto node_of(G& g, int id) {
  return tracer{&g, id};
}

/// What `emit<Op>(a...)` returns. A class template of Op and the operands, so that naming
/// emit<Op> in an op's rule does not look at Op's traits before the operands are known (an
/// op's simplification may record an op whose traits are defined after its own).
template <class Op, class... A>
struct emit_result {
  using type = traced_result_t<Op>;
};

/// Records `Op(a...)` in the graph of its traced operands: simplification first, then a
/// hash-consed node. Symbolic zeros reach only ops whose `simplify` handles them. (The
/// declared return type matters: deducing it would instantiate the op's descriptor, whose
/// rules call emit for the same op.)
template <class Op, class... A>
constexpr typename emit_result<Op, A...>::type emit(const A&... a) {
  static_assert(sizeof...(A) == arity_v<Op>);
  graph* g = common_graph(a...);
  if (g == nullptr) {
    // Every operand is a symbolic zero or a number; derivative rules are skipped when all
    // their tangents are zero, so only a rule written as `t * 2.0` could get here.
    if constexpr ((traced<A> && ...) && requires { op_traits<Op>::zero_preserving; }) return wrap<Op>(nullptr, -1);
    trace_error("calx internal: an op received only symbolic zeros and numbers");
  }
  int in[sizeof...(A) == 0 ? 1 : sizeof...(A)] = {};
  int k = 0;
  ((in[k++] = operand_id(g, a)), ...);
  return wrap<Op>(g, emit_op(*g, ref_of<Op>(), in));
}

}  // namespace detail
CALX_END_NAMESPACE

#endif // CALX_DETAIL_OPS_DESCRIBE_HPP
