/// @file detail/call/custom_rule.hpp
/// @brief What custom_vjp and custom_jvp share: a user function `Fwd` on argument structures
/// becomes one op node whose operands are the arguments' leaves and whose results are the
/// leaves of `Fwd`'s result; its rules trace `Fwd` (and the closure it returns) again, in the
/// graph of the pass that needs them. Also the checks of what `Fwd` returns.
#ifndef CALX_DETAIL_CALL_CUSTOM_RULE_HPP
#define CALX_DETAIL_CALL_CUSTOM_RULE_HPP

#include <calx/detail/internal_header_check.hpp>

#include <calx/detail/call/trace_source.hpp>
#include <calx/detail/diagnostics.hpp>
#include <calx/detail/ir/graph.hpp>
#include <calx/detail/ops/describe.hpp>
#include <calx/tracer.hpp>
#include <calx/tree.hpp>

#include <cstddef>
#include <tuple>
#include <type_traits>
#include <utility>

CALX_BEGIN_NAMESPACE
namespace detail {

/// The node ids of the leaves of `t` (traced values and numbers) in `g`, in flattening
/// order; numbers become constants, symbolic zeros stay -1.
template <class T>
constexpr void leaf_ids(graph& g, const T& t, int*& out) {
  for_each_leaf(t, [&]<class X>(const X& leaf) {
    if constexpr (real_tracer<X>) {
      if (leaf.graph != nullptr && leaf.graph != &g) trace_error("calx: a custom rule returned a value of another trace");
      *out++ = leaf.id;
    } else {
      *out++ = g.constant(static_cast<double>(leaf));
    }
  });
}

/// A structure `Tree` (tracer leaves) of the ids `in[0..]` of graph `g`; with `Materialize`,
/// symbolic zeros become the constant 0 (a user's closure gets real values).
template <class Tree, bool Materialize = false>
constexpr Tree tree_of_ids(graph& g, const int*& in) {
  return build_tree<Tree>([&]<class X>(const X&) {
    const int id = *in++;
    return X(Materialize && id < 0 ? tracer{&g, g.constant(0.0)} : in_graph(g, id));
  });
}

/// The arguments `Args...` (tracer structures) of the ids `x[0..]`.
template <bool Materialize, class... Args>
constexpr std::tuple<Args...> args_of_ids(graph& g, const int* x) {
  return std::tuple<Args...>{tree_of_ids<Args, Materialize>(g, x)...};
}

/// The graph of the first traced leaf of `t`, or null.
template <class T>
constexpr graph* tree_graph(const T& t) {
  graph* g = nullptr;
  for_each_leaf(t, [&]<class X>(const X& leaf) {
    if constexpr (real_tracer<X>)
      if (g == nullptr) g = leaf.graph;
  });
  return g;
}
template <class... A>
constexpr graph* common_tree_graph(const A&... a) {
  graph* g = nullptr;
  ((g = g != nullptr ? g : tree_graph(a)), ...);
  return g;
}

/// What `Fwd` returns on traced arguments `Args...`.
template <class Fwd, class... Args>
using fwd_result_t = std::remove_cvref_t<std::invoke_result_t<const Fwd&, const Args&...>>;

template <class T>
inline constexpr bool is_pair_v = false;
template <class A, class B>
inline constexpr bool is_pair_v<std::pair<A, B>> = true;

/// Whether `T` is a structure of traced values.
template <class T>
constexpr bool traced_structure() {
  return all_leaves_v<T, is_tracer>;
}

template <class T>
struct is_rule_leaf : std::bool_constant<real_tracer<T> || std::is_same_v<T, double>> {};

/// Whether `T` has the structure of `Arg` (tracer leaves) with every leaf a traced value or
/// a double (a cotangent or tangent a user's closure returns).
template <class T, class Arg>
constexpr bool rule_leaves_match() {
  return std::is_same_v<rebind_t<T, tracer>, Arg> && all_leaves_v<T, is_rule_leaf>;
}

/// The node of a custom function on traced arguments `a...`: its results as a structure of
/// traced values (the op's `outputs` leaves taken from a tuple node when there are several).
template <class Op, class Out, class... A>
constexpr Out emit_custom(const A&... a) {
  graph* g = common_tree_graph(a...);
  if (g == nullptr) trace_error("calx internal: a custom function was traced with no traced argument");
  id_buffer ids(static_cast<int>((std::size_t{0} + ... + leaf_count_v<A>)));
  int* p = ids.data();
  (leaf_ids(*g, a, p), ...);
  const int node = emit_op(*g, ref_of<Op>(), ids.data());
  constexpr std::size_t m = leaf_count_v<Out>;
  id_buffer results(static_cast<int>(m));
  if constexpr (m == 1) {
    results[0] = node;
  } else {
    for (std::size_t k = 0; k < m; ++k) results[static_cast<int>(k)] = g->get(node, static_cast<int>(k));
  }
  const int* q = results.data();
  return tree_of_ids<Out>(*g, q);
}

}  // namespace detail
CALX_END_NAMESPACE

#endif // CALX_DETAIL_CALL_CUSTOM_RULE_HPP
