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
  if constexpr (std::is_same_v<T, tracer>) {
    if (t.graph != nullptr && t.graph != &g) trace_error("calx: a custom rule returned a value of another trace");
    *out++ = t.id;
  } else if constexpr (std::is_arithmetic_v<T>) {
    *out++ = g.constant(static_cast<double>(t));
  } else {
    std::apply([&](const auto&... e) { (leaf_ids(g, e, out), ...); }, t);
  }
}

/// A structure `Tree` (tracer leaves) of the ids `in[0..]` of graph `g`; with `Materialize`,
/// symbolic zeros become the constant 0 (a user's closure gets real values).
template <class Tree, bool Materialize = false>
constexpr Tree tree_of_ids(graph& g, const int*& in) {
  if constexpr (std::is_same_v<Tree, tracer>) {
    const int id = *in++;
    return Materialize && id < 0 ? tracer{&g, g.constant(0.0)} : in_graph(g, id);
  } else if constexpr (requires { typename Tree::first_type; }) {
    // Braced initialisation reads the leaves left to right.
    return Tree{tree_of_ids<typename Tree::first_type, Materialize>(g, in),
                tree_of_ids<typename Tree::second_type, Materialize>(g, in)};
  } else if constexpr (requires(Tree t) { t[0]; }) {
    Tree t{};
    for (auto& e : t) e = tree_of_ids<std::remove_cvref_t<decltype(e)>, Materialize>(g, in);
    return t;
  } else {
    return [&]<std::size_t... I>(std::index_sequence<I...>) {
      // Braced initialisation reads the leaves left to right.
      return Tree{tree_of_ids<std::tuple_element_t<I, Tree>, Materialize>(g, in)...};
    }(std::make_index_sequence<std::tuple_size_v<Tree>>{});
  }
}

/// The arguments `Args...` (tracer structures) of the ids `x[0..]`.
template <bool Materialize, class... Args>
constexpr std::tuple<Args...> args_of_ids(graph& g, const int* x) {
  return std::tuple<Args...>{tree_of_ids<Args, Materialize>(g, x)...};
}

/// The graph of the first traced leaf of `t`, or null.
template <class T>
constexpr graph* tree_graph(const T& t) {
  if constexpr (std::is_same_v<T, tracer>) {
    return t.graph;
  } else if constexpr (std::is_arithmetic_v<T>) {
    return nullptr;
  } else {
    graph* g = nullptr;
    std::apply([&](const auto&... e) { ((g = g != nullptr ? g : tree_graph(e)), ...); }, t);
    return g;
  }
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

/// Whether `T` is a structure of traced values (std::tuple, std::pair, std::array).
template <class T>
constexpr bool traced_structure() {
  if constexpr (std::is_same_v<T, tracer>)
    return true;
  else if constexpr (requires { std::tuple_size<T>::value; } && !std::is_same_v<T, invalid_program>)
    return []<std::size_t... I>(std::index_sequence<I...>) {
      return (traced_structure<std::tuple_element_t<I, T>>() && ...);
    }(std::make_index_sequence<std::tuple_size_v<T>>{});
  else
    return false;
}

/// Whether `T` has the structure of `Arg` (tracer leaves) with every leaf a traced value or
/// a double (a cotangent or tangent a user's closure returns).
template <class T, class Arg>
constexpr bool rule_leaves_match() {
  if constexpr (std::is_same_v<Arg, tracer>) {
    return std::is_same_v<T, tracer> || std::is_same_v<T, double>;
  } else if constexpr (requires { std::tuple_size<T>::value; } &&
                       !std::is_same_v<T, invalid_program>) {
    if constexpr (std::tuple_size_v<T> != std::tuple_size_v<Arg> ||
                  requires { typename Arg::first_type; } != requires { typename T::first_type; })
      return false;
    else
      return []<std::size_t... I>(std::index_sequence<I...>) {
        return (rule_leaves_match<std::remove_cvref_t<std::tuple_element_t<I, T>>, std::tuple_element_t<I, Arg>>() &&
                ...);
      }(std::make_index_sequence<std::tuple_size_v<T>>{});
  } else {
    return false;
  }
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
