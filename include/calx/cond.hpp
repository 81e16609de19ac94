/// @file cond.hpp
/// @brief `calx::cond(pred, true_fn, false_fn, operands...)`: JAX's `lax.cond`. On a traced
/// predicate it is one IR node whose branches are sub-programs (each function traced once):
/// run on numbers, only the branch taken is evaluated; under vmap with a per-sample
/// predicate it becomes a select of both branches (its decomposition); its gradient is a
/// cond of the branches' partial derivatives, so it never flows into the branch not taken.
#ifndef CALX_COND_HPP
#define CALX_COND_HPP

#include <calx/argnums.hpp>
#include <calx/config.hpp>
#include <calx/detail/call/run.hpp>
#include <calx/detail/call/trace_source.hpp>
#include <calx/detail/diagnostics.hpp>
#include <calx/detail/invalid_program.hpp>
#include <calx/grad.hpp>
#include <calx/jvp.hpp>
#include <calx/math.hpp>
#include <calx/op_traits.hpp>
#include <calx/to_string.hpp>
#include <calx/tracer.hpp>

#include <array>
#include <concepts>
#include <cstddef>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>

CALX_BEGIN_NAMESPACE

namespace detail {

/// The op of a traced cond: operand 0 is the predicate as a real (1 or 0), then the `N`
/// operands both branches take. `Depth`: 0 for a user's cond, 1 for the conds its
/// derivative rules record (whose own rules select instead: see op_traits below).
template <class F, class G, std::size_t N, int Depth = 0>
struct cond_op {};

/// A traced scalar for each element of an index pack (a class template: nvcc's front end
/// drops the pack from `decltype((void)I, tracer{})...`).
template <std::size_t>
struct tracer_at {
  using type = tracer;
};

/// `F` on `N` traced scalars: its program, and that program run on numbers.
template <class F, class Seq>
struct branch_program;
template <class F, std::size_t... I>
struct branch_program<F, std::index_sequence<I...>> {
  using source = trace_source<F, typename tracer_at<I>::type...>;
  template <class T>
  static T run(const T* x) {
    const T* in[] = {x + I..., nullptr};
    T out{};
    run_into<source>(in, results_in_place<T>(out));
    return out;
  }
};
template <class F, std::size_t N>
using branch_t = branch_program<F, std::make_index_sequence<N>>;

/// `F`'s derivatives, inlined where a rule runs: its tangent at x along t, and the
/// gradient of `ct F` with respect to each operand.
template <class F, std::size_t N>
struct branch_derivatives {
  static constexpr tracer tangent(const std::array<tracer, N>& x, const std::array<tracer, N>& t) {
    return [&]<std::size_t... I>(std::index_sequence<I...>) {
      return tracer(calx::jvp(make_stateless<F>(), std::tuple{x[I]...}, std::tuple{t[I]...}).second);
    }(std::make_index_sequence<N>{});
  }
  static constexpr std::array<tracer, N> gradient(const std::array<tracer, N>& x) {
    return [&]<std::size_t... I>(std::index_sequence<I...>) {
      if constexpr (N == 1) {
        return std::array<tracer, 1>{tracer(calx::grad(make_stateless<F>())(x[0]))};
      } else {
        const auto g = calx::grad(make_stateless<F>(), calx::argnums<static_cast<int>(I)...>)(x[I]...);
        return std::array<tracer, N>{tracer(std::get<I>(g))...};
      }
    }(std::make_index_sequence<N>{});
  }
};

/// The branch of a cond's gradient for operand K, as a function calx traces: d F / d x_K
/// from (x...).
template <class F, std::size_t N, std::size_t K>
struct partial_branch {
  template <class... A>
  constexpr tracer operator()(const A&... a) const {
    return branch_derivatives<F, N>::gradient(std::array<tracer, N>{tracer(a)...})[K];
  }
};

/// `cond_op<F, G, N, Depth>` recorded on the real predicate `p` and operands `x`.
template <class F, class G, std::size_t N, int Depth, std::size_t M>
constexpr tracer record_cond(const tracer& p, const std::array<tracer, M>& x) {
  return [&]<std::size_t... I>(std::index_sequence<I...>) {
    return emit<cond_op<F, G, N, Depth>>(p, x[I]...);
  }(std::make_index_sequence<M>{});
}

}  // namespace detail

/// One node of the IR (printed `cond`): the branch taken runs on numbers; a per-sample
/// predicate under vmap selects between both branches (the decomposition); forward mode
/// selects between the branches' tangents, reverse mode records conds of their partial
/// derivatives (below), so no derivative of the branch not taken reaches the result.
template <class F, class G, std::size_t N, int Depth>
struct op_traits<detail::cond_op<F, G, N, Depth>> {
  static constexpr const char* name = "cond";
  static constexpr int arity = static_cast<int>(N) + 1;

  template <std::floating_point T, std::same_as<T>... X>
  static T kernel(T p, X... x) {
    const std::array<T, N == 0 ? 1 : N> in{x...};
    return p != T(0) ? detail::branch_t<F, N>::template run<T>(in.data()) : detail::branch_t<G, N>::template run<T>(in.data());
  }

  /// The branches' programs, as `to_string` prints them after the name.
  static const char* parameters(bool single) {
    using TF = typename detail::branch_t<F, N>::source;
    using TG = typename detail::branch_t<G, N>::source;
    static const std::string text[2] = {detail::nested_programs_text<TF, TG>({"true_fn", "false_fn"}, false),
                                        detail::nested_programs_text<TF, TG>({"true_fn", "false_fn"}, true)};
    return text[single ? 1 : 0].c_str();
  }
  template <class P, class... X>
  static constexpr tracer decomposition(const P& p, const X&... x) {
    return calx::where(p != 0.0, tracer(detail::make_stateless<F>()(x...)), tracer(detail::make_stateless<G>()(x...)));
  }

  // Forward mode selects between both branches' tangents (a select passes no NaN of the
  // branch not taken on, at any order of forward mode). Reverse mode of a user's cond
  // records conds of its branches' partial derivatives, so that only the branch taken is
  // differentiated, at the first and the second order (a hessian); their own rules select
  // instead: a cond of derivative programs is a new op type at every order, which the
  // compiler would instantiate without end (op descriptions are made eagerly).
  template <class Y, class... A>
  static constexpr tracer jvp(const Y& y, const A&... a) {
    const std::array<tracer, 2 * (N + 1)> v{tracer(a)...};  // p, x..., then their tangents
    std::array<tracer, N> x{}, t{};
    bool any = false;
    for (std::size_t i = 0; i < N; ++i) {
      x[i] = v[1 + i];
      t[i] = v[N + 2 + i];
      any = any || !t[i].is_zero();
      if (t[i].is_zero()) t[i] = tracer{y.graph, y.graph->constant(0.0)};
    }
    if (!any) return tracer{};
    return calx::where(v[0] != 0.0, detail::branch_derivatives<F, N>::tangent(x, t),
                       detail::branch_derivatives<G, N>::tangent(x, t));
  }

  template <class C, class Y, class... X>
  static constexpr std::array<tracer, N + 1> vjp(const C& ct, const Y&, const X&... a) {
    std::array<tracer, N + 1> out{};  // the predicate's cotangent: zero
    if (ct.is_zero()) return out;
    const std::array<tracer, N + 1> v{tracer(a)...};
    std::array<tracer, N> x{};
    for (std::size_t i = 0; i < N; ++i) x[i] = v[1 + i];
    if constexpr (Depth == 0) {
      [&]<std::size_t... K>(std::index_sequence<K...>) {
        ((out[1 + K] = ct * detail::record_cond<detail::partial_branch<F, N, K>, detail::partial_branch<G, N, K>, N, 1>(
                                v[0], x)),
         ...);
      }(std::make_index_sequence<N>{});
    } else {
      const auto gf = detail::branch_derivatives<F, N>::gradient(x);
      const auto gg = detail::branch_derivatives<G, N>::gradient(x);
      const bool_tracer taken = v[0] != 0.0;
      for (std::size_t i = 0; i < N; ++i) out[1 + i] = ct * calx::where(taken, gf[i], gg[i]);
    }
    return out;
  }
};

struct cond_fn {
  /// A traced predicate: one `cond` node. `true_fn` and `false_fn` take the operands (float,
  /// double or traced scalars) and return one scalar each.
  template <class P, class F, class G, class... X>
    requires(std::same_as<P, bool_tracer>)
  constexpr auto operator()(const P& pred, const F&, const G&, const X&... x) const {
    constexpr bool stateless = detail::stateless_v<F> && detail::stateless_v<G>;
    static_assert(stateless, CALX_MSG_COND_STATELESS);
    constexpr bool operands = (real_operand<X> && ...);
    static_assert(!stateless || operands, CALX_MSG_COND_OPERANDS);
    if constexpr (stateless && operands) {
      using TF = typename detail::branch_t<F, sizeof...(X)>::source::output_tree;
      using TG = typename detail::branch_t<G, sizeof...(X)>::source::output_tree;
      constexpr bool scalars = real_tracer<TF> && real_tracer<TG>;
      static_assert(scalars, CALX_MSG_COND_RESULTS);
      if constexpr (scalars) {
        using R = detail::real_result_t<X...>;
        return R(detail::emit<detail::cond_op<F, G, sizeof...(X)>>(calx::where(pred, 1.0, 0.0), x...));
      } else {
        return detail::invalid_program{};
      }
    } else {
      return detail::invalid_program{};
    }
  }

  /// A plain `bool`: the branch it names, called (traced or not), as Python's `if` in JAX.
  template <class F, class G, class... X>
  constexpr auto operator()(bool pred, const F& true_fn, const G& false_fn, const X&... x) const {
    using TF = std::invoke_result_t<const F&, const X&...>;
    using TG = std::invoke_result_t<const G&, const X&...>;
    constexpr bool same = std::is_same_v<std::remove_cvref_t<TF>, std::remove_cvref_t<TG>>;
    static_assert(same, CALX_MSG_COND_RESULTS);
    if constexpr (same)
      return pred ? true_fn(x...) : false_fn(x...);
    else
      return detail::invalid_program{};
  }
};
/// `calx::cond(pred, true_fn, false_fn, operands...)`: see cond_fn.
inline constexpr cond_fn cond{};

CALX_END_NAMESPACE

#endif  // CALX_COND_HPP
