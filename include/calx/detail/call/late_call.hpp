/// @file detail/call/late_call.hpp
/// @brief The second half of a partially evaluated program (a vjp's pullback,
/// linearize's linear map): it holds the residuals the first half computed and runs only
/// the part that depends on the late inputs, as often as it is called.
#ifndef CALX_DETAIL_CALL_LATE_CALL_HPP
#define CALX_DETAIL_CALL_LATE_CALL_HPP

#include <calx/detail/internal_header_check.hpp>

#include <calx/detail/call/transform_support.hpp>

#include <array>
#include <cstddef>
#include <type_traits>

CALX_BEGIN_NAMESPACE
namespace detail {

/// `a...` as a flat array of `L`; number leaves become constants when `L` is a tracer (a
/// tensor of numbers one node of them).
template <class L, class... A>
constexpr auto flatten_as(graph* g, const A&... a) {
  if constexpr (std::is_same_v<L, tracer> && !(leaves_are_v<A, tracer> && ...)) {
    std::array<tracer, (std::size_t{0} + ... + value_count_v<A>)> flat{};
    tracer* p = flat.data();
    auto put = [&]<class X>(const X& leaf) {
      if constexpr (traced_whole<X>) {
        const tracer h = tree_node<X>::traced(leaf);
        if (h.graph != nullptr) {
          *p++ = h;
        } else {
          std::vector<int> e(tree_node<X>::extent, -1);
          for (std::size_t k = 0; k < tree_node<X>::extent; ++k) e[k] = g->constant(static_cast<double>(leaf[k]));
          *p++ = tracer{g, pack(*g, e.data(), tree_node<X>::dims)};
        }
      } else if constexpr (std::is_same_v<X, tracer>) {
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

template <class Late, class L, std::size_t R>
struct late_call {
  using leaf = L;
  std::array<L, R> residuals{};
  graph* trace = nullptr;  // the trace the residuals live in, when L is a tracer

  template <class Result, class... A>
  constexpr Result call(const A&... a) const {
    const auto out = run<Late>(concat(residuals, flatten_as<L>(trace, a...)));
    return unflatten<Result>(out);
  }
};

/// Partial evaluation at a call (vjp, linearize): runs the known part of `Full` — whose
/// inputs start with the primals of call `C` and whose outputs start with its outputs — on
/// `a...` now, and returns those outputs with the late part, which holds the residuals.
template <class Full, class C, class... A>
constexpr auto split_call(const A&... a) {
  using L = typename C::leaf;
  const auto flat = flatten_args<L>(a...);
  const auto out = run<known_source<Full, C::inputs, C::outputs>>(flat);
  constexpr std::size_t outputs = slot_count_v<typename C::output_tree, L>, R = out.size() - outputs;
  late_call<late_source<Full, C::inputs, C::outputs>, L, R> late{};
  for (std::size_t i = 0; i < R; ++i) late.residuals[i] = out[outputs + i];
  late.trace = graph_in(flat);
  return std::pair{out, late};
}

}  // namespace detail
CALX_END_NAMESPACE

#endif // CALX_DETAIL_CALL_LATE_CALL_HPP
