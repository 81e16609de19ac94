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
#include <calx/detail/ir/ir.hpp>
#include <calx/tracer.hpp>
#include <calx/tree.hpp>

#include <array>
#include <bit>
#include <cstddef>
#include <span>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

CALX_BEGIN_NAMESPACE
namespace detail {

/// A structure of fresh input tracers, leaves numbered in flattening order.
/// What the traced function receives for an argument structure: batched inputs are
/// tracers too.
template <class Tree>
using call_tree_t = rebind_t<Tree, tracer>;

template <class Tree>
constexpr call_tree_t<Tree> make_inputs(graph& g) {
  const Tree marks{};
  call_tree_t<Tree> t{};
  zip_traced_leaves(marks, t, [&]<class M, class X>(const M&, X& x) {
    if constexpr (is_batched_structure_v<M>) {  // a batch of structures: each value per sample
      for_each_traced_leaf(x, [&]<class Y>(Y& y) {
        if constexpr (traced_whole<Y>)
          tree_node<Y>::set_node(y, tracer{&g, g.input(value_kind::real, true, tree_node<Y>::dims)});
        else
          y = Y(tracer{&g, g.input(value_kind::real, true)});
      });
    } else if constexpr (traced_whole<X>) {  // a tensor: one input node of its shape
      tree_node<X>::set_node(x, tracer{&g, g.input(value_kind::real, false, tree_node<X>::dims)});
    } else {
      x = X(tracer{&g, g.input(value_kind::real, batch_mark_v<M>)});
    }
  });
  return t;
}

template <class T>
struct is_tracer : std::bool_constant<real_tracer<T>> {};
template <class T>
struct is_mask : std::is_same<T, bool_tracer> {};

/// What a traced function may return: tracers (and masks, refused later with a message)
/// inside structures.
template <class T>
struct is_traced_output : std::bool_constant<real_tracer<T> || traced_whole<T>> {};
template <class T>
struct traced_tree : std::bool_constant<all_leaves_v<T, is_traced_output>> {};
template <class T>
struct has_mask_leaf : std::bool_constant<any_leaf_v<T, is_mask>> {};

template <class Tree>
constexpr void collect_outputs(graph& g, const Tree& t) {
  for_each_traced_leaf(t, [&]<class X>(const X& leaf) {
    if constexpr (real_tracer<X>) {
      if (leaf.graph != nullptr && leaf.graph != &g)
        trace_error("calx: the function returned a value traced by another transform");
      g.outputs.push_back(leaf.id);
    } else if constexpr (traced_whole<X>) {  // a tensor: its node
      const tracer h = tree_node<X>::traced(leaf);
      if (h.graph == nullptr) {  // numbers: a tensor of constants
        g.output(constant_pack(g, leaf, tree_node<X>::dims));
      } else {
        if (h.graph != &g) trace_error("calx: the function returned a value traced by another transform");
        g.output(h.id);
      }
    }
  });
}

/// Whether a value of type `T` holds a traced value (a tracer leaf): a call made while an
/// outer transform traces.
template <class T>
constexpr bool contains_tracer() {
  return any_leaf_v<T, is_tracer>;
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

/// For a transform `F` whose trace on `Trees...` is made from its function's own trace
/// (a transform of a function over runtime batches, detail/call/gradient.hpp): that
/// function, `function`, which is what is diagnosed. Empty otherwise.
template <class F, class... Trees>
struct traced_through {};

/// Whether tracing `F` on `Trees...` is a constant expression (helpers constexpr, no
/// runtime state read): a substitution failure here rather than a hard error lets calx
/// say what is wrong. The build is the program's first (`first_build`, which g++ evaluates
/// once for both).
template <class Source>
constexpr std::size_t traced_size() {
  return first_build<Source>().facts.sizes[0];
}
template <class F, class... Trees>
concept constant_traceable =
    requires { typename std::integral_constant<std::size_t, traced_size<trace_source<F, Trees...>>()>; };

/// The checks every entry point runs before tracing, in order, each with its fix-it
/// message; later asserts are guarded so only the first failure is reported.
template <class F, class... Trees>
constexpr bool diagnose_function();
template <class F, class... Trees>
constexpr bool diagnose_traceable() {
  if constexpr (requires { typename traced_through<F, Trees...>::function; })
    return diagnose_function<typename traced_through<F, Trees...>::function, Trees...>();
  else
    return diagnose_function<F, Trees...>();
}
template <class F, class... Trees>
constexpr bool diagnose_function() {
  constexpr bool stateless = stateless_v<F>;
  static_assert(stateless, CALX_MSG_CAPTURES);
  // Arguments that cannot be traced (a struct that cannot hold tracers) were reported by
  // diagnose_arguments; calling F on them would only add errors.
  if constexpr (stateless && (tree_traits<Trees>::valid && ...)) {
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
        // A misuse calx found while tracing (t[k] on a traced tensor, say) was recorded and
        // the trace went on (graph::refuse): tracing_failed reports it.
        if constexpr (traceable) return materialized<trace_source<F, Trees...>>::refusal == nullptr;
        return false;
      }
    }
  }
  return false;
}

/// What an entry point returns once a diagnosis failed. When the failure was in tracing
/// itself, the trace is evaluated once more where failing is an error, so the compiler's
/// note names the culprit: the helper that is not constexpr, or calx's own message (a call
/// to calx::detail::trace_error("...") made while tracing); a misuse the trace recorded
/// (graph::refuse) is reported by its own function. Called in the `else` branch of
/// the diagnosis, so the error cannot change the diagnosis.
template <class F, class... Trees>
constexpr invalid_program tracing_failed() {
  if constexpr (stateless_v<F> && (tree_traits<Trees>::valid && ...)) {  // nested: && would instantiate the call
    if constexpr (std::is_invocable_v<const F&, const call_tree_t<Trees>&...>) {
      using out = std::remove_cvref_t<std::invoke_result_t<const F&, const call_tree_t<Trees>&...>>;
      if constexpr (!holds_invalid_program<out>::value) {
        if constexpr (traced_tree<out>::value && !constant_traceable<F, Trees...>) {
          [[maybe_unused]] constexpr std::size_t where_tracing_failed = traced_size<trace_source<F, Trees...>>();
        } else if constexpr (traced_tree<out>::value) {
          if constexpr (materialized<trace_source<F, Trees...>>::refusal != nullptr) {
            [[maybe_unused]] constexpr int refused_while_tracing = name_the_refusal<trace_source<F, Trees...>>();
          }
        }
      }
    }
  }
  return {};
}

/// The arguments' precision: their first float or double leaf (integer leaves do not count),
/// double when there is none.
/// Inside a trace (a traced scalar among the arguments) it is `tracer`: tensors, whose type is
/// the same traced or not, then stand for traced values too.
template <class... A>
using common_leaf_t = std::conditional_t<
    (any_leaf_v<A, is_tracer> || ...), tracer,
    typename first_non_void<typename tree_traits<std::remove_cvref_t<A>>::first_leaf..., double>::type>;

/// The arguments' common leaf type, checked: every leaf float or every leaf double
/// (or every leaf a tracer, inside an outer trace).
/// Whether `T` is a runtime batch of samples calx cannot trace: integers, batches, structures
/// holding either (refused with a message of its own: the fix is in the samples).
template <class T>
struct untraceable_batch : std::false_type {};
template <class T, class A>
struct untraceable_batch<std::vector<T, A>> : std::bool_constant<!tree_traits<std::vector<T, A>>::valid> {};
template <class T>
struct untraceable_batch<std::span<T>> : std::bool_constant<!tree_traits<std::span<T>>::valid> {};

template <class... A>
constexpr bool diagnose_arguments() {
  if constexpr ((refused_type<std::remove_cvref_t<A>> || ...)) {
    // A type that refuses itself says why, alone (`tree_node`'s `refusal`).
    ([] {
      if constexpr (refused_type<std::remove_cvref_t<A>>) tree_node<std::remove_cvref_t<A>>::refusal();
    }(), ...);
    return false;
  } else {
    constexpr bool structured = (untraceable_batch<std::remove_cvref_t<A>>::value || ...);
    static_assert(!structured, CALX_MSG_BATCH_OF_STRUCTURES);
    constexpr bool valid = (tree_traits<std::remove_cvref_t<A>>::valid && ...);
    static_assert(valid || structured, CALX_MSG_BAD_LEAF);
    constexpr bool rebindable = !valid || (tree_traits<rebind_t<A, tracer>>::valid && ...);
    static_assert(rebindable, CALX_MSG_STRUCT_NOT_TRACEABLE);
    if constexpr (valid && rebindable && sizeof...(A) > 0) {
      using L = common_leaf_t<A...>;
      constexpr bool same = (leaves_are_v<A, L> && ...);
      static_assert(same, CALX_MSG_MIXED_PRECISION);
      return same;
    }
    return valid && rebindable;
  }
}


}  // namespace detail
CALX_END_NAMESPACE

#endif // CALX_DETAIL_CALL_TRACE_SOURCE_HPP
