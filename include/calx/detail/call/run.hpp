/// @file detail/call/run.hpp
/// @brief Running a program on flat leaves: codegen on numbers, inlining on tracers.
#ifndef CALX_DETAIL_CALL_RUN_HPP
#define CALX_DETAIL_CALL_RUN_HPP

#include <calx/detail/internal_header_check.hpp>

#include <calx/detail/exec/evaluate.hpp>
#include <calx/detail/ir/ir.hpp>
#include <calx/detail/passes/expand.hpp>
#include <calx/detail/passes/replay.hpp>
#include <calx/tracer.hpp>

#include <array>
#include <type_traits>
#include <vector>

CALX_BEGIN_NAMESPACE
namespace detail {

/// The program codegen runs for values of type `L`: user ops without a kernel that `L` can
/// take are expanded into their decompositions (float and double run scalar kernels; SIMD
/// batches run built-in kernels only).
template <class Source, class L>
using lowered_t = expanded_t<Source, std::is_floating_point_v<L> ? expand_for::scalar : expand_for::simd>;

/// Output nodes `res` of IR `r`, replayed into `g`, as tracers. A tensor's symbolic zero is
/// made a node of zeros: a null tracer reads as a scalar (see `unflatten_from`).
template <class IR>
constexpr std::array<tracer, IR::output_leaves> output_tracers(const IR& r, graph& g, const std::vector<int>& res) {
  std::array<tracer, IR::output_leaves> out{};
  for (std::size_t o = 0; o < IR::output_leaves; ++o) {
    const shape dims = r.nodes[r.outputs[o]].dims;
    out[o] = in_graph(g, res[o] < 0 && dims.rank > 0 ? broadcast_to(g, g.constant(0.0), dims) : res[o]);
  }
  return out;
}

/// Runs program `Source` on a flat array of inputs. With numbers (or SIMD batches) this is
/// the generated straight-line code on one entry per element. With tracers (one entry per
/// value: see `slot_count_v`) the program is inlined into their trace as it is (user ops
/// stay single nodes), which is how transforms compose; nothing there walks elements.
template <class Source, class L, std::size_t NI>
CALX_HOST_DEVICE constexpr CALX_INLINE auto run(const std::array<L, NI>& in) {
  using IRT = typename materialized<Source>::ir_type;
  if constexpr (std::is_same_v<L, tracer>) {
    static_assert(NI == IRT::input_leaves, "calx internal: input count mismatch");
    constexpr const auto& r = ir_v<Source>;
    graph* g = nullptr;
    std::vector<int> ids(NI, -1);  // (n, value): clang 14 rejects vector(n) in constant evaluation
    for (std::size_t i = 0; i < NI; ++i) {
      if (in[i].graph != nullptr) g = in[i].graph;
      ids[i] = in[i].id;
    }
    if (g == nullptr) trace_error("calx: a transformed function was traced with no traced input");
    return output_tracers(r, *g, replay(r, *g, ids));
  } else {
    static_assert(NI == IRT::input_count, "calx internal: flat input count mismatch");
    std::array<L, IRT::output_count> out{};
    evaluate<materialized<lowered_t<Source, L>>::value>(in.data(), out.data());
    return out;
  }
}

}  // namespace detail
CALX_END_NAMESPACE

#endif // CALX_DETAIL_CALL_RUN_HPP
