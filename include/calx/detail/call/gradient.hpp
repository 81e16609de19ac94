/// @file detail/call/gradient.hpp
/// @brief The transforms that return function objects: grad and value_and_grad (reverse
/// mode with a unit seed), jacfwd and jacrev (a full Jacobian by forward or reverse
/// passes). Each is an empty type, so it is itself a stateless function calx can trace:
/// grad(grad(f)), jacfwd(jacrev(f)), vmap(grad(f)) compose by inlining.
#ifndef CALX_DETAIL_CALL_GRADIENT_HPP
#define CALX_DETAIL_CALL_GRADIENT_HPP

#include <calx/detail/internal_header_check.hpp>

#include <calx/detail/call/batch_results.hpp>
#include <calx/detail/call/jacobian.hpp>
#include <calx/detail/call/transform_support.hpp>
#include <calx/detail/returned.hpp>

#include <array>
#include <cstddef>
#include <tuple>
#include <type_traits>
#include <utility>

CALX_BEGIN_NAMESPACE
namespace detail {

// The four transforms are one core, `derivative_transform`, over a small kind type each:
// what it computes (reverse or forward passes; a Jacobian or a gradient; with the value or
// not) and the checks that name it in their messages. (A static_assert's message must be
// a literal, so each kind spells its name through CALX_DERIVATIVE_CHECKS.)
#define CALX_DERIVATIVE_CHECKS(api)                                                             \
  static constexpr const char* name = "calx::" api;                                             \
  /* The function and the options, when the transform is made. */                              \
  template <bool Stateless, bool ValidOptions>                                                  \
  static constexpr void check_function() {                                                      \
    static_assert(Stateless, CALX_MSG_CAPTURES_IN(api));                                        \
    static_assert(!Stateless || ValidOptions, CALX_MSG_BAD_OPTION(api));                        \
  }                                                                                             \
  /* The call: argnums, aux, a scalar result (gradients), at most 4 axes (Jacobians). */        \
  template <class Info, bool AuxOk, bool Scalar, bool PicksIntegers, bool Fits = true>          \
  static constexpr bool check_call() {                                                          \
    CALX_CHECK_ARGNUMS(api, Info);                                                              \
    if constexpr (Info::ok) {                                                                   \
      static_assert(!PicksIntegers, CALX_MSG_ARGNUMS_INTEGER(api));                             \
      if constexpr (PicksIntegers) return false;                                                \
      static_assert(AuxOk, CALX_MSG_AUX_PAIR(api));                                             \
      constexpr bool scalar_ok = Scalar || jacobian;                                            \
      if constexpr (AuxOk) static_assert(scalar_ok, CALX_MSG_NOT_SCALAR(api));                  \
      if constexpr (AuxOk && scalar_ok) static_assert(Fits, CALX_MSG_JACOBIAN_RANK(api));       \
      return AuxOk && scalar_ok && Fits;                                                        \
    }                                                                                           \
    return false;                                                                               \
  }                                                                                             \
  /* Runtime batches among the arguments: a gradient (not a Jacobian) of a scalar result. */   \
  template <bool Gradient>                                                                      \
  static constexpr void check_batch() {                                                         \
    static_assert(Gradient, CALX_MSG_BATCH_JACOBIAN(api));                                      \
  }                                                                                             \
  template <bool Scalar>                                                                        \
  static constexpr void check_batch_result() {                                                  \
    static_assert(Scalar, CALX_MSG_PER_SAMPLE_OUTPUT(api));                                     \
  }

/// calx::grad: reverse mode with a unit seed; the gradient alone.
struct grad_kind {
  static constexpr bool reverse = true, jacobian = false, with_value = false;
  CALX_DERIVATIVE_CHECKS("grad")
};
/// calx::value_and_grad: as grad, with the value.
struct value_and_grad_kind {
  static constexpr bool reverse = true, jacobian = false, with_value = true;
  CALX_DERIVATIVE_CHECKS("value_and_grad")
};
/// calx::jacfwd: the Jacobian by forward passes.
struct jacfwd_kind {
  static constexpr bool reverse = false, jacobian = true, with_value = false;
  CALX_DERIVATIVE_CHECKS("jacfwd")
};
/// calx::jacrev: the Jacobian by reverse passes.
struct jacrev_kind {
  static constexpr bool reverse = true, jacobian = true, with_value = false;
  CALX_DERIVATIVE_CHECKS("jacrev")
};

#undef CALX_DERIVATIVE_CHECKS

/// A gradient's program without its value outputs.
template <class Source>
struct without_values;
template <class S, class W, class O>
struct without_values<vjp_source<S, W, O, false>> {
  using type = vjp_source<S, W, O, false, false>;
};
template <class Source>
using without_values_t = typename without_values<Source>::type;

template <class T>
struct is_whole_leaf : std::bool_constant<traced_whole<T>> {};

/// Whether a traced output is one scalar: a tracer, a rank-0 tensor, or a structure of one
/// leaf whose numbers are one number (calx::eigen::scalar).
template <class V>
inline constexpr bool scalar_output_v =
    real_tracer<V> || (traced_whole<V> && leaf_count_v<V> == 1) || std::is_floating_point_v<rebind_t<V, double>>;

/// `F`'s derivative with respect to the arguments `Argnums`; `Kind` (`grad_kind`, ...) says which.
template <class F, class Argnums, bool Aux, class Kind>
struct derivative_transform {
  template <class... A>
  constexpr CALX_INLINE auto operator()(const A&... a) const {
    if constexpr (diagnose_arguments<A...>() && diagnose_traceable<F, rebind_t<A, tracer>...>()) {
      using C = traced_call<F, A...>;
      using Split = split_output<typename C::output_tree, Aux>;
      using Info = argnums_info<Argnums, sizeof...(A)>;
      using V = typename Split::value;
      constexpr bool fits = [] {  // Jacobians only: grad's result has the argument's shape
        if constexpr (Kind::jacobian)
          return jacobian_fits<V, Info, rebind_t<A, tracer>...>();
        else
          return true;
      }();
      if constexpr (Kind::template check_call<Info, Split::valid, scalar_output_v<V>, picks_integers<Info, A...>(), fits>())
        return compute<C, Split, Info>(a...);
      else
        return invalid_program{};
    } else {
      return tracing_failed<F, rebind_t<A, tracer>...>();
    }
  }

 private:
  template <class C, class Split, class Info, class... A>
  static constexpr CALX_INLINE auto compute(const A&... a) {
    using V = typename Split::value;
    using S = wrt_spec<C, Info>;
    using Outs = range_spec<0, leaf_count_v<V>>;
    using Source = std::conditional_t<!Kind::jacobian, vjp_source<typename C::source, S, Outs, false>,
                                      jacobian_source<typename C::source, S, Outs, !Kind::reverse>>;
    if constexpr (!rules_found<Source>()) {
      report_missing_rule<Source>();
      return invalid_program{};
    } else if constexpr ((has_batch_v<A> || ...)) {
      return compute_batched<C, Split, Info, Source>(a...);
    } else {
      return compute_flat<C, Split, Info, Source>(a...);
    }
  }

  /// Arguments that hold runtime batches: only reverse mode with a scalar result (the
  /// gradient of a sum over the batch, say) is defined; per-sample derivatives are vmap's.
  /// Inside a trace (batch_tracer arguments) the program is inlined there, as on scalars.
  template <class C, class Split, class Info, class Source, class... A>
  static constexpr auto compute_batched(const A&... a) {
    using L = typename C::leaf;
    using V = typename Split::value;
    Kind::template check_batch<!Kind::jacobian>();
    if constexpr (!Kind::jacobian) {
      constexpr bool scalar = !any_batched_output<Source>(0, 1);
      Kind::template check_batch_result<scalar>();
      if constexpr (scalar && std::is_same_v<L, tracer>) {
        return compute_flat<C, Split, Info, Source>(a...);
      } else if constexpr (scalar) {
        using Out = typename C::output_tree;
        using GradSpec = call_tree_t<typename grad_result<Info, tracer, A...>::type>;
        using GR = typename grad_result<Info, L, A...>::type;
        using AuxRes = result_tree_t<Source, typename Split::aux, L, leaf_count_v<V>>;
        using OutRes = std::conditional_t<Aux, std::pair<L, AuxRes>, L>;
        auto r = batched_call<Source, std::tuple<Out, GradSpec>, std::tuple<OutRes, GR>, L>(
            Kind::name, a...);
        auto& [out, d] = r;  // columns are moved out, not copied
        if constexpr (Aux) {
          if constexpr (Kind::with_value)
            return std::pair{std::move(out), std::move(d)};
          else
            return std::pair{std::move(d), std::move(out.second)};
        } else if constexpr (Kind::with_value) {
          return std::pair{out, std::move(d)};
        } else {
          return GR(std::move(d));
        }
      } else {
        return invalid_program{};  // reported above
      }
    } else {
      return invalid_program{};  // reported above
    }
  }

  template <class C, class Split, class Info, class Source, class... A>
  static constexpr CALX_INLINE auto compute_flat(const A&... a) {
    using L = typename C::leaf;
    using V = typename Split::value;
    using GR = typename grad_result<Info, L, A...>::type;
    using Result = std::conditional_t<Kind::jacobian,
                                      rebind_t<V, GR>, GR>;
    if constexpr (!Aux && !Kind::with_value && !std::is_same_v<L, tracer>) {
      // Traced tensors only, inside a traced function: their types are the same traced or
      // not, so only here is it seen that the call is traced (the result's type is too).
      using TR = typename grad_result<Info, tracer, A...>::type;
      using TracedResult = std::conditional_t<Kind::jacobian,
                                              rebind_t<V, TR>, TR>;
      if constexpr (std::is_same_v<TracedResult, Result> && (all_leaves_v<A, is_whole_leaf> && ...))
        if (traced_tensor_among(a...))
          return unflatten<Result>(run<Source>(flatten_args<tracer>(a...)), slot_count_v<typename C::output_tree, tracer>);
    }
    if constexpr (std::is_same_v<L, tracer>) {
      const auto out = run<Source>(flatten_args<L>(a...));
      const Result d = unflatten<Result>(out, slot_count_v<typename C::output_tree, L>);
      if constexpr (Aux) {
        const auto aux = unflatten<rebind_t<typename Split::aux, L>>(out, slot_count_v<V, L>);
        return finish(out[0], aux, d);
      } else {
        return finish(out[0], 0, d);
      }
    } else if constexpr (!Aux && !Kind::with_value) {
      // Numbers, read and written in place; the derivative alone is returned, written where
      // the caller keeps it (a large tensor is on the stack once, not copied). A gradient's
      // program then leaves the value out, and what only the value needs.
      return returned_written<Result>([&](Result& d) {
        if constexpr (!Kind::jacobian) {
          run_into<without_values_t<Source>>(arguments_in_place<L>(a...), results_in_place<L>(d));
        } else {
          rebind_t<typename C::output_tree, L> primal{};
          run_into<Source>(arguments_in_place<L>(a...), results_in_place<L>(primal, d));
        }
      });
    } else if constexpr (!Aux) {  // value_and_grad: (value, derivative), both written in place
      return returned_written<std::pair<L, Result>>([&](std::pair<L, Result>& r) {
        rebind_t<typename C::output_tree, L> primal{};
        const auto out = results_in_place<L>(primal, r.second);
        run_into<Source>(arguments_in_place<L>(a...), out);
        r.first = *out.at[0];
      });
    } else {  // numbers, read and written in place
      rebind_t<typename C::output_tree, L> primal{};
      Result d{};
      const auto out = results_in_place<L>(primal, d);
      run_into<Source>(arguments_in_place<L>(a...), out);
      if constexpr (Aux)
        return finish(*out.at[0], primal.second, d);
      else
        return finish(*out.at[0], 0, d);
    }
  }

  /// What the transform returns from the value, the auxiliary data and the derivative.
  template <class L, class X, class Result>
  static constexpr CALX_INLINE auto finish(const L& value, const X& aux, const Result& d) {
    if constexpr (Aux) {
      if constexpr (Kind::with_value)
        return std::pair{std::pair{value, aux}, d};
      else
        return std::pair{d, aux};
    } else if constexpr (Kind::with_value) {
      return std::pair{value, d};
    } else {
      return d;
    }
  }
};

/// The function object behind calx::grad, calx::value_and_grad, calx::jacfwd, calx::jacrev.
template <class Kind>
struct derivative_fn {
  template <class F, class... Opts>
  constexpr auto operator()(const F&, const Opts&...) const {
    using O = transform_options<Opts...>;
    constexpr bool stateless = stateless_v<F>;
    Kind::template check_function<stateless, O::valid>();
    if constexpr (stateless && O::valid)
      return derivative_transform<F, typename O::argnums, O::aux, Kind>{};
    else
      return invalid_program{};
  }
};

/// The call of `G` on argument trees `Trees...` as they are (tracer leaves, runtime batches
/// marked `batched_leaf`): `traced_call` for trees.
template <class G, class... Trees>
struct marked_call {
  using source = trace_source<G, Trees...>;
  using output_tree = typename source::output_tree;
  static constexpr const auto& offsets = leaf_offsets<Trees...>;
};

/// Whether a derivative transform traced on `Trees...` is made from its function's trace:
/// where a runtime batch is among the arguments (inside calx::trace or jvp), and for the
/// kinds that take batches.
template <class Kind, bool Aux, class... Trees>
inline constexpr bool traced_over_batch =
    !Kind::jacobian && !Aux &&
    (tree_traits<Trees>::has_batch || ...);

/// grad or value_and_grad of `G` traced on arguments that hold runtime batches: the
/// derivative program built from `G`'s trace on the same trees, so that a batch stays a
/// batch. Calling the transform on tracers instead would trace `G` on a plain number.
template <class G, class Argnums, bool Aux, class Kind, class... Trees>
  requires traced_over_batch<Kind, Aux, Trees...>
struct trace_source<derivative_transform<G, Argnums, Aux, Kind>, Trees...> {
  using C = marked_call<G, Trees...>;
  using Info = argnums_info<Argnums, sizeof...(Trees)>;
  using V = typename C::output_tree;
  using Derived = vjp_source<typename C::source, wrt_spec<C, Info>, range_spec<0, leaf_count_v<V>>, false>;
  // The transform's own checks (argnums, a scalar result), with their messages; the
  // result's type is only formed once they pass.
  static constexpr bool checked =
      Kind::template check_call<Info, true, scalar_output_v<V>,
                          picks_integers<Info, Trees...>()>();
  struct unchecked {
    using type = tracer;
  };
  using grads = typename std::conditional_t<checked, grad_result<Info, tracer, Trees...>, unchecked>::type;
  using output_tree = std::conditional_t<Kind::with_value, std::pair<V, grads>, grads>;
  static constexpr graph build() {
    if constexpr (!checked) {
      return graph{};
    } else {
      graph g = Derived::build();  // outputs: the value, then the gradients
      if constexpr (!Kind::with_value)
        g.outputs.erase(g.outputs.begin(), g.outputs.begin() + static_cast<std::ptrdiff_t>(value_count_v<V>));
      return g;
    }
  }
};
template <class G, class Argnums, bool Aux, class Kind, class... Trees>
  requires traced_over_batch<Kind, Aux, Trees...>
struct traced_through<derivative_transform<G, Argnums, Aux, Kind>, Trees...> {
  using function = G;
};

}  // namespace detail
CALX_END_NAMESPACE

#endif // CALX_DETAIL_CALL_GRADIENT_HPP
