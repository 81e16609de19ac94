/// @file tracer.hpp
/// @brief `calx::tracer`: the value a function sees while calx traces it, and the
/// arithmetic that records IR nodes.
#ifndef CALX_TRACER_HPP
#define CALX_TRACER_HPP

#include <calx/config.hpp>
#include <calx/detail/diagnostics.hpp>
#include <calx/detail/graph.hpp>
#include <calx/detail/type_list.hpp>
#include <calx/op_traits.hpp>

#include <concepts>
#include <type_traits>

CALX_BEGIN_NAMESPACE

/// A real value inside a function being traced: a node of the graph under construction.
/// `id < 0` is a symbolic zero, a tangent or cotangent known to be 0 that has no node.
struct tracer {
  detail::graph* graph = nullptr;
  int id = -1;
  constexpr bool is_zero() const { return id < 0; }
};

/// A traced comparison: a mask node. It cannot become a `bool`: tracing records one program
/// for all inputs, so data-dependent branches must be written with `calx::where`.
struct bool_tracer {
  detail::graph* graph = nullptr;
  int id = -1;
  template <class Deferred = void>
  constexpr explicit operator bool() const {
    static_assert(detail::always_false_v<Deferred>, CALX_MSG_BRANCH_ON_TRACER);
    return false;
  }
};

/// A traced value of either kind.
template <class T>
concept traced = std::same_as<std::remove_cvref_t<T>, tracer> || std::same_as<std::remove_cvref_t<T>, bool_tracer>;

/// A plain number that may appear next to traced values (it becomes a constant node).
template <class T>
concept number = std::is_arithmetic_v<std::remove_cvref_t<T>> && !std::same_as<std::remove_cvref_t<T>, bool>;

/// An operand of a traced op.
template <class T>
concept trace_operand = traced<T> || number<T>;

namespace detail {

/// Not constexpr on purpose: reaching it makes tracing fail with this call in the message.
inline void trace_error(const char*) {}

inline constexpr int no_simplification = -2;

template <class T>
constexpr graph* graph_of(const T& a) {
  if constexpr (traced<T>)
    return a.graph;
  else
    return nullptr;
}

template <class... A>
constexpr graph* common_graph(const A&... a) {
  graph* g = nullptr;
  auto pick = [&](graph* h) {
    if (h == nullptr) return;
    if (g != nullptr && g != h)
      trace_error("calx: values from two different traces met in one operation (a tracer leaked "
                  "out of the function that created it)");
    g = h;
  };
  (pick(graph_of(a)), ...);
  return g;
}

template <class T>
constexpr int operand_id(graph* g, const T& a) {
  if constexpr (traced<T>)
    return a.id;
  else
    return g->constant(static_cast<double>(a));
}

template <class Op>
constexpr auto wrap(graph* g, int id) {
  if constexpr (op_traits<Op>::result == value_kind::boolean)
    return bool_tracer{g, id};
  else
    return tracer{id < 0 ? nullptr : g, id};
}

/// Records `Op(a...)` in the graph of its traced operands: simplification first, then a
/// hash-consed node. Symbolic zeros reach only ops whose `simplify` handles them.
template <class Op, class... A>
constexpr auto emit(const A&... a) {
  using traits = op_traits<Op>;
  static_assert(sizeof...(A) == traits::arity);
  graph* g = common_graph(a...);
  if (g == nullptr) {
    // Every operand is a symbolic zero or a number; derivative rules are skipped when all
    // their tangents are zero, so only a rule written as `t * 2.0` could get here.
    if constexpr ((traced<A> && ...) && requires { traits::zero_preserving; }) return wrap<Op>(nullptr, -1);
    trace_error("calx internal: an op received only symbolic zeros and numbers");
  }
  int in[3] = {-1, -1, -1};
  int k = 0;
  ((in[k++] = operand_id(g, a)), ...);
  if constexpr (requires { traits::simplify(*g, in); }) {
    int s = traits::simplify(*g, in);
    if (s != no_simplification) return wrap<Op>(g, s);
  }
  node n;
  n.op = opcode_v<Op>;
  n.kind = traits::result;
  for (int i = 0; i < traits::arity; ++i) n.in[i] = in[i] < 0 ? g->constant(0) : in[i];
  // Elementwise ops are batched when an operand is; reductions over the batch are not.
  if constexpr (!requires { traits::reduces_batch; })
    for (int i = 0; i < traits::arity; ++i) n.batched = n.batched || g->is_batched(n.in[i]);
  return wrap<Op>(g, g->emit(n));
}

}  // namespace detail

CALX_END_NAMESPACE

#endif // CALX_TRACER_HPP
