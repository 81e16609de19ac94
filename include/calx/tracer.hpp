/// @file tracer.hpp
/// @brief `calx::tracer`: the value a function sees while calx traces it. Operations on it
/// record IR nodes (calx/math.hpp).
#ifndef CALX_TRACER_HPP
#define CALX_TRACER_HPP

#include <calx/config.hpp>
#include <calx/detail/diagnostics.hpp>
#include <calx/detail/ir/graph.hpp>
#include <calx/detail/type_list.hpp>

#include <concepts>
#include <type_traits>

CALX_BEGIN_NAMESPACE

/// A real value inside a function being traced: a node of the graph under construction.
/// `id < 0` is a symbolic zero, a tangent or cotangent known to be 0 that has no node.
struct tracer {
  detail::graph* graph = nullptr;
  int id = -1;
  constexpr bool is_zero() const { return id < 0; }

  /// Not a conversion: the message for a traced value used where a plain double is needed,
  /// most often `std::sin(x)` or another std:: math function (a traced value has no number
  /// while the function is traced; calx::sin records the operation).
  template <std::same_as<double> D>
  constexpr operator D() const {
    static_assert(detail::always_false_v<D>, CALX_MSG_STD_MATH);
    return 0;
  }
};

/// A traced value with one value per sample of a runtime batch: what a traced function
/// receives for a `std::vector` or `std::span` argument, and what arithmetic and calx's
/// functions give when an operand is one (a reduction, `calx::sum` or `calx::mean`, gives a
/// `tracer`). The type carries the batch to a transform called inside the trace:
/// `calx::grad(loss)(w, xs)` there traces `loss` over a batch, as it does on numbers.
struct batch_tracer : tracer {
  constexpr batch_tracer() = default;
  constexpr explicit batch_tracer(const tracer& t) : tracer(t) {}
};

/// A real traced value: a `tracer` or a `batch_tracer`.
template <class T>
concept real_tracer = std::same_as<std::remove_cvref_t<T>, tracer> || std::same_as<std::remove_cvref_t<T>, batch_tracer>;

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
concept traced = real_tracer<T> || std::same_as<std::remove_cvref_t<T>, bool_tracer>;

/// A plain number that may appear next to traced values (it becomes a constant node).
template <class T>
concept number = std::is_arithmetic_v<std::remove_cvref_t<T>> && !std::same_as<std::remove_cvref_t<T>, bool>;

/// An operand of a traced op.
template <class T>
concept trace_operand = traced<T> || number<T>;

namespace detail {

/// The real traced value an op on operands `A...` gives: a batch where one of them is.
template <class... A>
using real_result_t =
    std::conditional_t<(std::same_as<std::remove_cvref_t<A>, batch_tracer> || ...), batch_tracer, tracer>;

/// Not constexpr on purpose: reaching it makes tracing fail with this call in the message.
inline void trace_error(const char*) {}

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

/// The node id of an operand in `g`: a traced value's own, a number's constant.
template <class T>
constexpr int operand_id(graph* g, const T& a) {
  if constexpr (traced<T>)
    return a.id;
  else
    return g->constant(static_cast<double>(a));
}

/// A node id of `g` as a traced value (a symbolic zero when `id < 0`).
constexpr tracer in_graph(graph& g, int id) { return tracer{id < 0 ? nullptr : &g, id}; }

}  // namespace detail

CALX_END_NAMESPACE

#endif // CALX_TRACER_HPP
