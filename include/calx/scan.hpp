/// @file scan.hpp
/// @brief `calx::scan(f, init, xs)`: JAX's `lax.scan`. `f(carry, x)` returns
/// `std::pair{carry, y}`; `scan` returns `std::pair{carry, ys}`, `ys` stacking the per-step
/// outputs along a new leading axis (a `calx::tensor` per output leaf), `x` running over the
/// leading axis of `xs` (a tensor, or a structure of tensors of one length). On traced values
/// it is one IR node (calx/loop_op.hpp) whose body is traced once: the IR, the compile time
/// and the generated code do not grow with the number of steps. Reverse mode stores the
/// carries of every step and runs the body's vjp backwards.
#ifndef CALX_SCAN_HPP
#define CALX_SCAN_HPP

#include <calx/config.hpp>
#include <calx/detail/call/custom_rule.hpp>
#include <calx/detail/call/trace_source.hpp>
#include <calx/detail/diagnostics.hpp>
#include <calx/detail/invalid_program.hpp>
#include <calx/detail/ops/tensor_ops.hpp>
#include <calx/fori_loop.hpp>
#include <calx/loop_op.hpp>
#include <calx/tensor_type.hpp>
#include <calx/tracer.hpp>
#include <calx/tree.hpp>

#include <array>
#include <cstddef>
#include <tuple>
#include <type_traits>
#include <utility>

CALX_BEGIN_NAMESPACE

namespace detail {

/// What `scan` can take as `xs`: 1-D tensors, alone or in std::arrays, tuples and pairs,
/// all of one length. `ok`, `length` (the steps), `element` (the first tensor's), and
/// `row<L>`: the structure `f` receives at each step, each tensor an `L`.
template <class T>
struct scan_inputs {
  static constexpr bool ok = false;
  static constexpr std::size_t length = 0;
  using element = void;
  template <class L>
  using row = void;
};
template <class T, std::size_t L>
struct scan_inputs<tensor<T, L>> {
  static constexpr bool ok = true;
  static constexpr std::size_t length = L;
  using element = T;
  template <class E>
  using row = E;
};
template <class A0, class... A>
struct scan_inputs_of {
  static constexpr std::size_t length = scan_inputs<A0>::length;
  static constexpr bool ok = scan_inputs<A0>::ok && ((scan_inputs<A>::ok && scan_inputs<A>::length == length) && ...);
  using element = typename scan_inputs<A0>::element;
};
template <class E, std::size_t N>
struct scan_inputs<std::array<E, N>> : scan_inputs<E> {
  static constexpr bool ok = N > 0 && scan_inputs<E>::ok;
  template <class L>
  using row = std::array<typename scan_inputs<E>::template row<L>, N>;
};
template <class A0, class... A>
struct scan_inputs<std::tuple<A0, A...>> : scan_inputs_of<A0, A...> {
  template <class L>
  using row = std::tuple<typename scan_inputs<A0>::template row<L>, typename scan_inputs<A>::template row<L>...>;
};
template <class A, class B>
struct scan_inputs<std::pair<A, B>> : scan_inputs_of<A, B> {
  template <class L>
  using row = std::pair<typename scan_inputs<A>::template row<L>, typename scan_inputs<B>::template row<L>>;
};

/// The per-step outputs stacked: each leaf of `Y` a tensor of `L` elements of `E`.
template <class Y, class E, std::size_t L>
struct stacked {
  using type = tensor<E, L>;
};
template <class A, std::size_t N, class E, std::size_t L>
struct stacked<std::array<A, N>, E, L> {
  using type = std::array<typename stacked<A, E, L>::type, N>;
};
template <class... A, class E, std::size_t L>
struct stacked<std::tuple<A...>, E, L> {
  using type = std::tuple<typename stacked<A, E, L>::type...>;
};
template <class A, class B, class E, std::size_t L>
struct stacked<std::pair<A, B>, E, L> {
  using type = std::pair<typename stacked<A, E, L>::type, typename stacked<B, E, L>::type>;
};
template <class Y, class E, std::size_t L>
using stacked_t = typename stacked<std::remove_cvref_t<Y>, E, L>::type;

/// The user's `f(carry, x)` on flat values: (N carries, X inputs) in, (N carries, Y
/// outputs) out; `C` and `R` the carry's and the row's structures with traced leaves.
template <class F, class C, class R, std::size_t N, std::size_t X, std::size_t Y>
struct scan_step {
  constexpr std::array<tracer, N + Y> operator()(const tracer& i, const std::array<tracer, N + X>& u) const {
    std::array<tracer, N> c{};
    std::array<tracer, X> x{};
    for (std::size_t k = 0; k < N; ++k) c[k] = u[k];
    for (std::size_t k = 0; k < X; ++k) x[k] = u[N + k];
    const auto r = make_stateless<F>()(unflatten<C>(c), unflatten<R>(x));
    const auto next = traced_leaves<N>(*i.graph, r.first);
    const auto y = traced_leaves<Y>(*i.graph, r.second);
    std::array<tracer, N + Y> out{};
    for (std::size_t k = 0; k < N; ++k) out[k] = next[k];
    for (std::size_t k = 0; k < Y; ++k) out[N + k] = y[k];
    return out;
  }
};

template <class T>
struct is_scan_output_leaf : std::bool_constant<real_tracer<T> || std::is_floating_point_v<T>> {};

}  // namespace detail

struct scan_fn {
  /// Runs `f` over the leading axis of `xs` from `init`; see the file comment.
  template <class F, class C, class Xs>
  constexpr auto operator()(const F& f, const C& init, const Xs& xs) const {
    using In = detail::scan_inputs<std::remove_cvref_t<Xs>>;
    static_assert(In::ok, CALX_MSG_SCAN_INPUTS);
    constexpr bool carry = detail::all_leaves_v<C, detail::is_loop_leaf> && detail::leaf_count_v<C> > 0;
    static_assert(!In::ok || carry, CALX_MSG_SCAN_CARRY_LEAVES);
    if constexpr (In::ok && carry) {
      // Traced when the carry is (a tensor's traced-ness is known at run time only, and the
      // result's type must not depend on it).
      constexpr bool traced = detail::any_leaf_v<C, detail::is_tracer>;
      if constexpr (traced)
        return traced_scan(f, init, xs);
      else
        return plain_scan(f, init, xs);
    } else {
      return detail::invalid_program{};
    }
  }

 private:
  template <class F, class C, class Xs>
  static constexpr auto traced_scan(const F&, const C& init, const Xs& xs) {
    using In = detail::scan_inputs<std::remove_cvref_t<Xs>>;
    constexpr bool stateless = detail::stateless_v<F>;
    static_assert(stateless, CALX_MSG_SCAN_STATELESS);
    if constexpr (stateless) {
      using CT = detail::rebind_t<C, tracer>;
      using Row = typename In::template row<tracer>;
      using R = std::remove_cvref_t<decltype(detail::make_stateless<F>()(CT{}, Row{}))>;
      constexpr bool pair = detail::is_pair_v<R>;
      static_assert(pair, CALX_MSG_SCAN_RESULT);
      if constexpr (pair) {
        using Next = std::remove_cvref_t<typename R::first_type>;
        using Yt = std::remove_cvref_t<typename R::second_type>;
        constexpr bool same = std::is_same_v<detail::rebind_t<Next, tracer>, CT>;
        static_assert(same, CALX_MSG_SCAN_CARRY);
        constexpr bool outputs = detail::all_leaves_v<Yt, detail::is_scan_output_leaf>;
        static_assert(!same || outputs, CALX_MSG_SCAN_OUTPUTS);
        if constexpr (same && outputs) {
          constexpr std::size_t N = detail::leaf_count_v<C>, X = detail::value_count_v<Xs>, Y = detail::leaf_count_v<Yt>,
                                L = In::length;
          using Ys = detail::stacked_t<Yt, typename In::element, L>;
          using Op = detail::loop_op<detail::scan_step<F, CT, Row, N, X, Y>, N, X, Y, L>;
          detail::graph* g = nullptr;
          detail::for_each_leaf(init, [&]<class V>(const V& leaf) {
            if (g == nullptr) g = detail::graph_of(leaf);
          });
          detail::for_each_traced_leaf(xs, [&]<class V>(const V& leaf) {
            if (g == nullptr) g = tree_node<V>::traced(leaf).graph;
          });
          int in[2 + N + X] = {};
          std::size_t k = 0;
          in[k++] = g->constant(0.0);
          in[k++] = g->constant(static_cast<double>(L));
          detail::for_each_leaf(init, [&](const auto& leaf) { in[k++] = detail::operand_id(g, leaf); });
          detail::for_each_traced_leaf(xs, [&]<class V>(const V& leaf) {
            const tracer t = tree_node<V>::traced(leaf);
            in[k++] = t.graph != nullptr ? t.id : detail::constant_pack(*g, leaf, tree_node<V>::dims);
          });
          int res[N + Y] = {};
          detail::record_loop<Op>(*g, in, res, N + Y);
          std::array<tracer, N> c{};
          for (std::size_t j = 0; j < N; ++j) c[j] = detail::in_graph(*g, res[j]);
          Ys ys{};
          std::size_t j = N;
          detail::for_each_traced_leaf(ys, [&]<class V>(V& leaf) { tree_node<V>::set_node(leaf, tracer{g, res[j++]}); });
          return std::pair{detail::unflatten<CT>(c), ys};
        } else {
          return detail::invalid_program{};
        }
      } else {
        return detail::invalid_program{};
      }
    } else {
      return detail::invalid_program{};
    }
  }

  /// Plain numbers: a C++ loop.
  template <class F, class C, class Xs>
  static constexpr auto plain_scan(const F& f, const C& init, const Xs& xs) {
    using In = detail::scan_inputs<std::remove_cvref_t<Xs>>;
    using E = typename In::element;
    using Row = typename In::template row<E>;
    using R = std::remove_cvref_t<std::invoke_result_t<const F&, const C&, const Row&>>;
    constexpr bool pair = detail::is_pair_v<R>;
    static_assert(pair, CALX_MSG_SCAN_RESULT);
    if constexpr (pair) {
      constexpr bool same = std::is_same_v<std::remove_cvref_t<typename R::first_type>, C>;
      static_assert(same, CALX_MSG_SCAN_CARRY);
      if constexpr (same) {
        using Ys = detail::stacked_t<typename R::second_type, E, In::length>;
        if (std::is_constant_evaluated() && detail::holds_traced_tensor(xs))
          detail::trace_error("calx::scan: xs is traced but the carry holds plain numbers: make the carry traced "
                              "(for a zero, 0.0 * x with x a traced value), so that scan records one node");
        C c = init;
        Ys ys{};
        for (std::size_t s = 0; s < In::length; ++s) {
          const E* leaves[detail::value_count_v<Xs>] = {};
          std::size_t k = 0;
          detail::for_each_traced_leaf(xs, [&](const auto& t) { leaves[k++] = &t[s]; });
          k = 0;
          const Row row = detail::build_tree<Row>([&](const auto&) { return *leaves[k++]; });
          auto r = f(c, row);
          c = r.first;
          E out[detail::leaf_count_v<typename R::second_type> + 1] = {};
          k = 0;
          detail::for_each_leaf(r.second, [&](const auto& y) { out[k++] = static_cast<E>(y); });
          k = 0;
          detail::for_each_traced_leaf(ys, [&](auto& t) { t[s] = out[k++]; });
        }
        return std::pair{c, ys};
      } else {
        return detail::invalid_program{};
      }
    } else {
      return detail::invalid_program{};
    }
  }
};
/// `calx::scan(f, init, xs)`: see scan_fn.
inline constexpr scan_fn scan{};

CALX_END_NAMESPACE

#endif  // CALX_SCAN_HPP
