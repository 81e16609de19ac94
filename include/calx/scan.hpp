/// @file scan.hpp
/// @brief `calx::scan(f, init, xs)`: JAX's `lax.scan`. `f(carry, x)` returns
/// `std::pair{carry, y}`; `scan` returns `std::pair{carry, ys}`, `ys` stacking the per-step
/// outputs along a new leading axis (a `calx::tensor` per output leaf), `x` running over
/// the leading axis of `xs` (a tensor, or a structure of tensors of one length). On traced
/// values it is one IR node (calx/detail/call/loop_op.hpp) whose body is traced once: the
/// IR, the compile time and the generated code do not grow with the number of steps.
/// Reverse mode stores the carries of every step and runs the body's vjp backwards.
#ifndef CALX_SCAN_HPP
#define CALX_SCAN_HPP

#include <calx/config.hpp>
#include <calx/detail/call/custom_rule.hpp>
#include <calx/detail/call/loop_op.hpp>
#include <calx/detail/call/trace_source.hpp>
#include <calx/detail/diagnostics.hpp>
#include <calx/detail/invalid_program.hpp>
#include <calx/detail/tensor/ir_ops.hpp>
#include <calx/fori_loop.hpp>
#include <calx/tensor_type.hpp>
#include <calx/tracer.hpp>
#include <calx/tree.hpp>

#include <array>
#include <cstddef>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

CALX_BEGIN_NAMESPACE

namespace detail {

/// What `scan` can take as `xs`: tensors, alone or in std::arrays, tuples and pairs, all
/// of one leading length. `ok`, `length` (the steps), `element` (the first tensor's), and
/// `row<L>`: the structure `f` receives at each step, a 1-D tensor's entry an `L`, a
/// higher one's a slice (a tensor of the trailing axes; its traced form is itself).
template <class T>
struct scan_inputs {
  static constexpr bool ok = false;
  static constexpr std::size_t length = 0;
  using element = void;
  template <class L>
  using row = void;
};
template <class T, std::size_t L, std::size_t... D>
struct scan_inputs<tensor<T, L, D...>> {
  static constexpr bool ok = std::is_floating_point_v<T>;
  static constexpr std::size_t length = L;
  using element = T;
  template <class E>
  using row = std::conditional_t<sizeof...(D) == 0, E, tensor<T, D...>>;
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

/// The per-step outputs stacked along a new leading axis of `L`: a scalar leaf of `Y` a
/// tensor of `L` elements of `E`, a tensor leaf one of `L` such tensors.
template <class Y, class E, std::size_t L>
struct stacked {
  using type = tensor<E, L>;
};
template <class T, std::size_t... D, class E, std::size_t L>
struct stacked<tensor<T, D...>, E, L> {
  using type = tensor<T, L, D...>;
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

/// The user's `f(carry, x)` on flat values (one tracer per value): (N carries, X inputs)
/// in, (N carries, Y outputs) out; `C` and `R` the carry's and the row's structures with
/// traced leaves.
template <class F, class C, class R, std::size_t N, std::size_t X, std::size_t Y>
struct scan_step {
  constexpr std::array<tracer, N + Y> operator()(const tracer& i, const std::array<tracer, N + X>& u) const {
    const auto r = make_stateless<F>()(unflatten<C>(u), unflatten<R>(u, N));
    const auto next = traced_values<N>(*i.graph, r.first);
    const auto y = traced_values<Y>(*i.graph, r.second);
    std::array<tracer, N + Y> out{};
    for (std::size_t k = 0; k < N; ++k) out[k] = next[k];
    for (std::size_t k = 0; k < Y; ++k) out[N + k] = y[k];
    return out;
  }
};

/// The elements of the values of structure `t` (one for a scalar, a tensor's own), value
/// after value, through `f(k, e, x)`: value k's element e is x.
template <class T, class F>
constexpr void for_each_value_element(const T& t, F&& f) {
  std::size_t k = 0;
  for_each_traced_leaf(t, [&]<class X>(const X& v) {
    if constexpr (traced_whole<X>) {
      for (std::size_t e = 0; e < tree_node<X>::extent; ++e) f(k, e, v[e]);
    } else {
      f(k, std::size_t{0}, v);
    }
    ++k;
  });
}

}  // namespace detail

struct scan_fn {
  static constexpr void refuse_plain_carry(bool now) {
    if (now)
      detail::trace_error("calx::scan: xs is traced but the carry holds plain numbers: make the carry traced "
                          "(for a zero, 0.0 * x with x a traced value), so that scan records one node");
  }

  /// Runs `f` over the leading axis of `xs` from `init`; see the file comment.
  template <class F, class C, class Xs>
  constexpr auto operator()(const F& f, const C& init, const Xs& xs) const {
    using In = detail::scan_inputs<std::remove_cvref_t<Xs>>;
    static_assert(In::ok, CALX_MSG_SCAN_INPUTS);
    constexpr bool carry = detail::loop_carry_v<C>;
    static_assert(!In::ok || carry, CALX_MSG_SCAN_CARRY_LEAVES);
    if constexpr (In::ok && carry) {
      // Traced when the carry is: by type (a traced scalar), or, for a carry of tensors
      // only, whose traced form is itself, by value (the result's type is the same).
      constexpr bool traced = detail::any_leaf_v<C, detail::is_tracer>;
      if constexpr (traced) {
        return traced_scan(f, init, xs);
      } else {
        if constexpr (detail::tensor_carry_v<C>)
          if (detail::traced_tensor_among(init, xs)) return traced_scan(f, init, xs);
        return plain_scan(f, init, xs);
      }
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
        // A per-step output takes what a carry takes: scalars and tensors of them.
        constexpr bool outputs = detail::all_leaves_v<Yt, detail::is_loop_leaf>;
        static_assert(!same || outputs, CALX_MSG_SCAN_OUTPUTS);
        if constexpr (same && outputs) {
          constexpr std::size_t N = detail::value_count_v<C>, X = detail::value_count_v<Xs>,
                                Y = detail::value_count_v<Yt>, L = In::length;
          using Ys = detail::stacked_t<Yt, typename In::element, L>;
          using Step = detail::step_source<detail::scan_step<F, CT, Row, N, X, Y>, detail::value_dims<CT, Row>>;
          using Op = detail::loop_op<Step, N, X, Y, L>;
          // Operands: the bounds, the carry's values, the tensors of xs.
          detail::graph* g = detail::common_graph_of(init, xs);
          std::vector<int> in{g->constant(0.0), g->constant(static_cast<double>(L))};
          for (const int id : detail::value_ids(g, init, xs)) in.push_back(id);
          return detail::record_results<Op, std::pair<CT, Ys>>(*g, in.data());
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
        C c = init;
        Ys ys{};
        if (detail::traced_tensor_among(xs)) {
          detail::common_graph_of(xs)->refuse(&refuse_plain_carry);
          return std::pair{c, ys};  // the trace goes on, to be reported (graph::refuse)
        }
        constexpr std::size_t X = detail::value_count_v<Xs>, Y = detail::value_count_v<Ys>;
        const E* xs_at[X] = {};
        std::size_t xs_row[X] = {};
        E* ys_at[Y == 0 ? 1 : Y] = {};
        std::size_t ys_row[Y == 0 ? 1 : Y] = {}, k = 0;
        detail::for_each_traced_leaf(xs, [&]<class T>(const T& t) {
          xs_row[k] = tree_node<T>::extent / In::length;
          xs_at[k++] = t.data();
        });
        k = 0;
        detail::for_each_traced_leaf(ys, [&]<class T>(T& t) {
          ys_row[k] = tree_node<T>::extent / In::length;
          ys_at[k++] = t.data();
        });
        for (std::size_t s = 0; s < In::length; ++s) {
          // The row's leaves in order: value after value, element after element.
          std::size_t v = 0, e = 0;
          const Row row = detail::build_tree<Row>([&](const auto&) {
            const E x = xs_at[v][s * xs_row[v] + e];
            if (++e == xs_row[v]) e = 0, ++v;
            return x;
          });
          auto r = f(c, row);
          c = r.first;
          detail::for_each_value_element(r.second, [&](std::size_t j, std::size_t i, const auto& y) {
            ys_at[j][s * ys_row[j] + i] = static_cast<E>(y);
          });
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
