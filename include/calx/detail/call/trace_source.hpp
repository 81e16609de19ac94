/// @file detail/call/trace_source.hpp
/// @brief Tracing a stateless callable: calls `F{}` in a constant expression on one tracer
/// per leaf of each argument structure and records the resulting graph.
#ifndef CALX_DETAIL_CALL_TRACE_SOURCE_HPP
#define CALX_DETAIL_CALL_TRACE_SOURCE_HPP

#include <calx/detail/internal_header_check.hpp>

#include <calx/config.hpp>
#include <calx/detail/diagnostics.hpp>
#include <calx/detail/invalid_program.hpp>
#include <calx/detail/ir/graph.hpp>
#include <calx/tracer.hpp>
#include <calx/tree.hpp>

#include <array>
#include <bit>
#include <cstddef>
#include <tuple>
#include <type_traits>
#include <utility>

CALX_BEGIN_NAMESPACE
namespace detail {

/// A structure of fresh input tracers, leaves numbered in flattening order.
/// What the traced function receives for an argument structure: batched inputs are
/// tracers too.
template <class Tree>
using call_tree_t = rebind_t<Tree, tracer>;

template <class Tree>
constexpr call_tree_t<Tree> make_inputs(graph& g) {
  if constexpr (std::is_same_v<Tree, tracer>) {
    return tracer{&g, g.input()};
  } else if constexpr (std::is_same_v<Tree, batched_leaf>) {
    return tracer{&g, g.input(value_kind::real, true)};
  } else if constexpr (requires { typename Tree::first_type; }) {
    return call_tree_t<Tree>{make_inputs<typename Tree::first_type>(g), make_inputs<typename Tree::second_type>(g)};
  } else if constexpr (requires(Tree t) { t[0]; }) {
    call_tree_t<Tree> t{};
    for (auto& e : t) e = make_inputs<typename Tree::value_type>(g);
    return t;
  } else {
    return [&]<std::size_t... I>(std::index_sequence<I...>) {
      return call_tree_t<Tree>{make_inputs<std::tuple_element_t<I, Tree>>(g)...};
    }(std::make_index_sequence<std::tuple_size_v<Tree>>{});
  }
}

/// What a traced function may return: tracers (and masks, refused later with a message)
/// inside arrays, tuples and pairs.
template <class T>
struct traced_tree : std::bool_constant<std::is_same_v<T, tracer>> {};
template <class T, std::size_t N>
struct traced_tree<std::array<T, N>> : traced_tree<T> {};
template <class... T>
struct traced_tree<std::tuple<T...>> : std::bool_constant<(traced_tree<T>::value && ...)> {};
template <class A, class B>
struct traced_tree<std::pair<A, B>> : std::bool_constant<traced_tree<A>::value && traced_tree<B>::value> {};

template <class T>
struct has_mask_leaf : std::is_same<T, bool_tracer> {};
template <class T, std::size_t N>
struct has_mask_leaf<std::array<T, N>> : has_mask_leaf<T> {};
template <class... T>
struct has_mask_leaf<std::tuple<T...>> : std::bool_constant<(has_mask_leaf<T>::value || ...)> {};
template <class A, class B>
struct has_mask_leaf<std::pair<A, B>> : std::bool_constant<has_mask_leaf<A>::value || has_mask_leaf<B>::value> {};

template <class Tree>
constexpr void collect_outputs(graph& g, const Tree& t) {
  if constexpr (std::is_same_v<Tree, tracer>) {
    if (t.graph != nullptr && t.graph != &g)
      trace_error("calx: the function returned a value traced by another transform");
    g.outputs.push_back(t.id);
  } else {
    std::apply([&](const auto&... e) { (collect_outputs(g, e), ...); }, t);
  }
}

/// Whether a value of type `T` holds a traced value (a tracer leaf): a call made while an
/// outer transform traces.
template <class T>
constexpr bool contains_tracer() {
  if constexpr (std::is_same_v<T, tracer>)
    return true;
  else if constexpr (requires { std::tuple_size<T>::value; } && !std::is_same_v<T, invalid_program>)
    return []<std::size_t... I>(std::index_sequence<I...>) {
      return (contains_tracer<std::remove_cvref_t<std::tuple_element_t<I, T>>>() || ...);
    }(std::make_index_sequence<std::tuple_size_v<T>>{});
  else
    return false;
}

/// What calx can trace: an empty callable (a captureless lambda, an empty function object, or
/// a lambda with a capture-default that captures nothing), which calx makes anew inside
/// constant evaluation.
template <class F>
inline constexpr bool stateless_v =
    std::is_empty_v<F> && (std::is_default_constructible_v<F> || std::is_trivially_copyable_v<F>);

/// A value of the stateless callable type `F`. A lambda with a capture-default (`[&]`) has no
/// default constructor even when it captures nothing; being empty and trivially copyable, it
/// is made from a byte instead.
template <class F>
constexpr F make_stateless() {
  if constexpr (std::is_default_constructible_v<F>)
    return F{};
  else
    return std::bit_cast<F>(static_cast<unsigned char>(0));
}

/// `F` traced on argument structures `Trees...` (leaves: tracer).
template <class F, class... Trees>
struct trace_source {
  using output_tree = std::remove_cvref_t<decltype(std::declval<const F&>()(std::declval<const call_tree_t<Trees>&>()...))>;
  static constexpr graph build() {
    graph g;
    // Braced initialisation numbers the inputs left to right.
    std::tuple<call_tree_t<Trees>...> args{make_inputs<Trees>(g)...};
    collect_outputs(g, std::apply(make_stateless<F>(), args));
    return g;
  }
};

/// Whether tracing `F` on `Trees...` is a constant expression (helpers constexpr, no
/// runtime state read): a substitution failure here rather than a hard error lets calx
/// say what is wrong.
template <class Source>
constexpr std::size_t traced_size() {
  graph g = Source::build();  // destroyed in here: clang rejects a temporary graph in the template argument
  return g.nodes.size();
}
template <class F, class... Trees>
concept constant_traceable =
    requires { typename std::integral_constant<std::size_t, traced_size<trace_source<F, Trees...>>()>; };

/// The checks every entry point runs before tracing, in order, each with its fix-it
/// message; later asserts are guarded so only the first failure is reported.
template <class F, class... Trees>
constexpr bool diagnose_traceable() {
  constexpr bool stateless = stateless_v<F>;
  static_assert(stateless, CALX_MSG_CAPTURES);
  if constexpr (stateless) {
    constexpr bool callable = std::is_invocable_v<const F&, const call_tree_t<Trees>&...>;
    static_assert(callable, CALX_MSG_NOT_CALLABLE);
    if constexpr (callable) {
      using out = std::remove_cvref_t<std::invoke_result_t<const F&, const call_tree_t<Trees>&...>>;
      // A call inside F (custom_vjp, a nested transform) already reported its misuse.
      constexpr bool reported = holds_invalid_program<out>::value;
      static_assert(reported || !has_mask_leaf<out>::value, CALX_MSG_BOOL_OUTPUT);
      static_assert(reported || has_mask_leaf<out>::value || traced_tree<out>::value, CALX_MSG_BAD_OUTPUT);
      if constexpr (!reported && traced_tree<out>::value) {
        // The probe traces F once more; CALX_DISABLE_CONCEPT_CHECKS skips it (a function that
        // is not constexpr then gets the compiler's own error instead of calx's message).
        constexpr bool traceable = [] {
          if constexpr (CALX_CONCEPT_CHECKS)
            return constant_traceable<F, Trees...>;
          else
            return true;
        }();
        static_assert(traceable, CALX_MSG_NOT_CONSTEXPR);
        return traceable;
      }
    }
  }
  return false;
}

/// What an entry point returns once a diagnosis failed. When the failure was in tracing
/// itself, the trace is evaluated once more where failing is an error, so the compiler's
/// note names the culprit: the helper that is not constexpr, or calx's own message (a call
/// to calx::detail::trace_error("...") made while tracing). Called in the `else` branch of
/// the diagnosis, so the error cannot change the diagnosis.
template <class F, class... Trees>
constexpr invalid_program tracing_failed() {
  if constexpr (stateless_v<F> &&
                std::is_invocable_v<const F&, const call_tree_t<Trees>&...>) {
    using out = std::remove_cvref_t<std::invoke_result_t<const F&, const call_tree_t<Trees>&...>>;
    if constexpr (!holds_invalid_program<out>::value) {  // nested: && would still instantiate the trace
      if constexpr (traced_tree<out>::value && !constant_traceable<F, Trees...>) {
        [[maybe_unused]] constexpr std::size_t where_tracing_failed = traced_size<trace_source<F, Trees...>>();
      }
    }
  }
  return {};
}

/// The arguments' precision: their first float or double leaf (integer leaves do not count),
/// double when there is none.
template <class... A>
using common_leaf_t = typename first_non_void<typename tree_traits<std::remove_cvref_t<A>>::first_leaf..., double>::type;

/// The arguments' common leaf type, checked: every leaf float or every leaf double
/// (or every leaf a tracer, inside an outer trace).
template <class... A>
constexpr bool diagnose_arguments() {
  constexpr bool valid = (tree_traits<std::remove_cvref_t<A>>::valid && ...);
  static_assert(valid, CALX_MSG_BAD_LEAF);
  if constexpr (valid && sizeof...(A) > 0) {
    using L = common_leaf_t<A...>;
    constexpr bool same = (leaves_are_v<A, L> && ...);
    static_assert(same, CALX_MSG_MIXED_PRECISION);
    return same;
  }
  return valid;
}


}  // namespace detail
CALX_END_NAMESPACE

#endif // CALX_DETAIL_CALL_TRACE_SOURCE_HPP
