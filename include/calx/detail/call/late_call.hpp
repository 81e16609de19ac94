/// @file detail/call/late_call.hpp
/// @brief The second half of a partially evaluated program (a vjp's pullback,
/// linearize's linear map): it holds the residuals the first half computed and runs only
/// the part that depends on the late inputs, as often as it is called.
#ifndef CALX_DETAIL_CALL_LATE_CALL_HPP
#define CALX_DETAIL_CALL_LATE_CALL_HPP

#include <calx/detail/internal_header_check.hpp>

#include <calx/detail/call/transform_support.hpp>
#include <calx/detail/returned.hpp>

#include <array>
#include <cstddef>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

CALX_BEGIN_NAMESPACE
namespace detail {

template <class T>
struct is_tensor_leaf : std::bool_constant<traced_whole<T>> {};

/// `a...` as a flat array of `L`; number leaves become constants when `L` is a tracer (a
/// tensor of numbers one node of them: a tensor's type does not say whether it is traced,
/// as scan's xs built in the traced function from numbers is not).
template <class L, class... A>
constexpr auto flatten_as(graph* g, const A&... a) {
  if constexpr (std::is_same_v<L, tracer> &&
                (!(leaves_are_v<A, tracer> && ...) || (any_leaf_v<A, is_tensor_leaf> || ...))) {
    std::array<tracer, (std::size_t{0} + ... + value_count_v<A>)> flat{};
    tracer* p = flat.data();
    auto put = [&]<class X>(const X& leaf) {
      if constexpr (traced_whole<X>) {
        const tracer h = tree_node<X>::traced(leaf);
        if (h.graph != nullptr) {
          *p++ = h;
        } else {
          *p++ = tracer{g, constant_pack(*g, leaf, tree_node<X>::dims)};
        }
      } else if constexpr (real_tracer<X>) {
        *p++ = leaf;
      } else {
        *p++ = tracer{g, g->constant(static_cast<double>(leaf))};
      }
    };
    (for_each_traced_leaf(a, put), ...);
    return flat;
  } else {
    return flatten_args<L>(a...);
  }
}

template <class L, std::size_t N>
constexpr graph* graph_in(const std::array<L, N>& a) {
  if constexpr (std::is_same_v<L, tracer>)
    for (const tracer& t : a)
      if (t.graph != nullptr) return t.graph;
  return nullptr;
}

/// Residuals kept between the known and the late part: on the heap beyond 64 KiB of numbers
/// (a pullback over large tensors), else in the object (no allocation, device code).
template <class L, std::size_t R>
struct heap_residuals {
  std::vector<L> v = std::vector<L>(R);
  L* data() { return v.data(); }
  const L* data() const { return v.data(); }
};
template <class L, std::size_t R>
using residual_store =
    std::conditional_t<!std::is_same_v<L, tracer> && (R * sizeof(L) > (std::size_t{1} << 16)), heap_residuals<L, R>,
                       std::array<L, R == 0 ? 1 : R>>;

template <class Late, class L, std::size_t R>
struct late_call {
  using leaf = L;
  static constexpr std::size_t residual_count = R;
  residual_store<L, R> residuals{};
  graph* trace = nullptr;  // the trace the residuals live in, when L is a tracer

  template <class Result, class... A>
  constexpr Result call(const A&... a) const {
    if constexpr (std::is_same_v<L, tracer>) {
      std::array<tracer, R> res{};
      for (std::size_t i = 0; i < R; ++i) res[i] = residuals[i];
      return unflatten<Result>(run<Late>(concat(res, flatten_as<L>(trace, a...))));
    } else {  // numbers, read and written in place: the residuals, then the arguments
      using M = materialized<lowered_t<Late, L>>;
      using IRT = typename M::ir_type;
      const auto args = arguments_in_place<L>(a...);
      constexpr std::size_t first = IRT::input_leaves - (std::size_t{0} + ... + value_count_v<A>);
      constexpr auto offset = M::value.input_offset;
      std::array<const L*, IRT::input_leaves == 0 ? 1 : IRT::input_leaves> in{};
      for (std::size_t k = 0; k < first; ++k) in[k] = residuals.data() + offset[k];
      for (std::size_t k = 0; k < IRT::input_leaves - first; ++k) in[first + k] = args.at[k];
      // The late part may compute more than `Result` holds (the tangents of auxiliary data).
      constexpr std::size_t rest = IRT::output_count - leaf_count_v<Result>;
      std::array<L, rest == 0 ? 1 : rest> unused{};
      return returned<Result>(
          [&](Result& r) { run_into<Late>(in.data(), and_value(results_in_place<L>(r), unused.data(), rest)); });
    }
  }
};

/// Partial evaluation at a call (vjp, linearize): runs the known part of `Full` — whose
/// inputs start with the primals of call `C` and whose outputs start with its outputs — on
/// `a...` now, and returns those outputs (`C`'s output structure) with the late part, which
/// holds the residuals.
template <class Full, class C>
struct split_parts {
  using L = typename C::leaf;
  using Known = known_source<Full, C::inputs, C::outputs>;
  using Out = rebind_t<typename C::output_tree, L>;
  static constexpr std::size_t outputs = slot_count_v<typename C::output_tree, L>;
};
/// The late part of `split_call<Full, C>` on numbers.
template <class Full, class C, class P = split_parts<Full, C>>
using late_call_t = late_call<late_source<Full, C::inputs, C::outputs>, typename P::L,
                              materialized<lowered_t<typename P::Known, typename P::L>>::ir_type::output_count - P::outputs>;

/// `split_call` on numbers, its outputs written to `out` and its residuals to `late`'s store
/// (where a caller keeps them: a large output is not copied).
template <class Full, class C, class... A>
constexpr void split_into(typename split_parts<Full, C>::Out& out, late_call_t<Full, C>& late, const A&... a) {
  using P = split_parts<Full, C>;
  run_into<typename P::Known>(arguments_in_place<typename P::L>(a...),
                              and_value(results_in_place<typename P::L>(out), late.residuals.data(),
                                        late_call_t<Full, C>::residual_count));
}

template <class Full, class C, class... A>
constexpr auto split_call(const A&... a) {
  using P = split_parts<Full, C>;
  using L = typename P::L;
  using Known = typename P::Known;
  using Out = typename P::Out;
  constexpr std::size_t outputs = P::outputs;
  if constexpr (std::is_same_v<L, tracer>) {
    const auto flat = flatten_args<L>(a...);
    const auto out = run<Known>(flat);
    constexpr std::size_t R = out.size() - outputs;
    late_call<late_source<Full, C::inputs, C::outputs>, L, R> late{};
    for (std::size_t i = 0; i < R; ++i) late.residuals[i] = out[outputs + i];
    late.trace = graph_in(flat);
    return std::pair{unflatten<Out>(out), late};
  } else {  // numbers, read and written in place; the residuals straight into their store
    using R = std::pair<Out, late_call_t<Full, C>>;
    return returned<R>([&](R& r) { split_into<Full, C>(r.first, r.second, a...); });
  }
}

/// What vjp and linearize share once `F` is traced (call `C`) and its output split into
/// value and aux (`Split`): runs the known part of `Full` now and returns the value with
/// the map that holds the residuals, `MapOf<late part, value type>` (the pullback, the
/// linear map): `std::pair{value, map}`, or `std::tuple{value, map, aux}`.
template <template <class, class> class MapOf, class Full, class C, class Split, bool Aux, class... A>
constexpr auto split_transform(const A&... a) {
  using L = typename C::leaf;
  using V = rebind_t<typename Split::value, L>;
  if constexpr (!rules_found<Full>()) {
    report_missing_rule<Full>();
    return invalid_program{};
  } else if constexpr (!Aux && !std::is_same_v<L, tracer>) {
    // Numbers: the value and the map's residuals written where the caller keeps them (a
    // large value is on the stack once).
    using M = MapOf<late_call_t<Full, C>, V>;
    return returned<std::pair<V, M>>([&](std::pair<V, M>& r) { split_into<Full, C>(r.first, r.second.state, a...); });
  } else {
    const auto [primal, late] = split_call<Full, C>(a...);
    const MapOf<std::remove_cvref_t<decltype(late)>, V> map{late};
    if constexpr (Aux)
      return std::tuple{V(primal.first), map, primal.second};
    else
      return std::pair{V(primal), map};
  }
}

}  // namespace detail
CALX_END_NAMESPACE

#endif // CALX_DETAIL_CALL_LATE_CALL_HPP
