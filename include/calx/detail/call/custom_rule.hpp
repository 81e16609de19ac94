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

/// The result structure of `Fwd` on `Args...` (the first of the pair it returns).
template <class Fwd, class... Args>
using custom_out_t = std::remove_cvref_t<decltype(std::declval<fwd_result_t<Fwd, Args...>>().first)>;

/// What the traits of a custom_vjp and a custom_jvp op share: the operands are the
/// arguments' leaves, the results the leaves of `Fwd`'s result, and the value is that
/// result (the decomposition, which the passes without a rule of the op's own transform).
template <class Fwd, class... Args>
struct custom_op_traits {
  using out = custom_out_t<Fwd, Args...>;
  static constexpr int arity = static_cast<int>((std::size_t{0} + ... + leaf_count_v<Args>));
  static constexpr int outputs = static_cast<int>(leaf_count_v<out>);

  static constexpr void decompose_ids(graph& g, const int* x, int* y) {
    const auto r = std::apply(make_stateless<Fwd>(), args_of_ids<false, Args...>(g, x));
    int* p = y;
    leaf_ids(g, r.first, p);
  }
};

// The checks of a custom rule's kind (custom_vjp_kind, custom_jvp_kind) that name it, `api`,
// in their messages (a static_assert's message must be a literal); `closure` is what its
// forward returns beside the result. `check<Fwd, Args...>()` checks the forward on traced
// arguments, then the kind's own `check_closure`.
#define CALX_CUSTOM_RULE_CHECKS(api, closure)                                                  \
  template <bool Stateless>                                                                    \
  static constexpr void check_stateless() {                                                    \
    static_assert(Stateless, CALX_MSG_CAPTURES_IN(api));                                       \
  }                                                                                            \
  template <bool NoTensor>                                                                     \
  static constexpr void check_no_tensor() {                                                    \
    static_assert(NoTensor, CALX_MSG_CUSTOM_TENSOR(api));                                      \
  }                                                                                            \
  template <class Fwd, class... Args>                                                          \
  static constexpr bool check() {                                                              \
    constexpr bool callable = std::is_invocable_v<const Fwd&, const Args&...>;                 \
    static_assert(callable, CALX_MSG_CUSTOM_CALLABLE(api));                                    \
    if constexpr (callable) {                                                                  \
      constexpr bool pair = is_pair_v<fwd_result_t<Fwd, Args...>>;                             \
      static_assert(pair, CALX_MSG_CUSTOM_PAIR(api, closure));                                 \
      if constexpr (pair) {                                                                    \
        constexpr bool traced_out = traced_structure<custom_out_t<Fwd, Args...>>();            \
        static_assert(traced_out, CALX_MSG_CUSTOM_RESULT(api));                                \
        if constexpr (traced_out) return check_closure<Fwd, Args...>();                        \
      }                                                                                        \
    }                                                                                          \
    return false;                                                                              \
  }

/// A custom_vjp or custom_jvp function (`Kind`): stateless (its forward is), so transforms
/// trace it like any function.
template <class Kind, class Fwd>
struct custom_function {
  using fwd_type = Fwd;
  /// On traced arguments: one node of `Kind`'s op. On plain numbers: the forward's result
  /// (the closure is dropped).
  template <class... A>
  constexpr auto operator()(const A&... a) const {
    constexpr bool no_tensor = !(holds_whole_node<A>() || ...);
    Kind::template check_no_tensor<no_tensor>();
    if constexpr (!no_tensor) {
      return make_stateless<Fwd>()(a...).first;  // reported: the forward's value stands in, no follow-on error
    } else if constexpr ((contains_tracer<A>() || ...)) {
      if constexpr (Kind::template check<Fwd, rebind_t<A, tracer>...>()) {
        using Op = typename Kind::template op<Fwd, rebind_t<A, tracer>...>;
        return emit_custom<Op, custom_out_t<Fwd, rebind_t<A, tracer>...>>(a...);
      } else {
        return invalid_program{};
      }
    } else {
      return make_stateless<Fwd>()(a...).first;
    }
  }
};

/// The function object behind `calx::custom_vjp` and `calx::custom_jvp`.
template <class Kind>
struct custom_fn {
  template <class Fwd>
  constexpr auto operator()(const Fwd&) const {
    constexpr bool stateless = stateless_v<Fwd>;
    Kind::template check_stateless<stateless>();
    if constexpr (stateless)
      return custom_function<Kind, Fwd>{};
    else
      return invalid_program{};
  }
};

}  // namespace detail
CALX_END_NAMESPACE

#endif // CALX_DETAIL_CALL_CUSTOM_RULE_HPP
