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

/// The node of each input of IR `r` from flat tracers `in`: the flat positions of a tensor
/// input name its node, or (a tensor made of scalars) are packed into one.
template <class IR, class Flat>
constexpr std::vector<int> input_ids(const IR& r, graph& g, const Flat& in) {
  std::vector<int> ids(IR::input_leaves, -1);  // (n, value): clang 14 rejects vector(n) in constant evaluation
  for (std::size_t k = 0; k < IR::input_leaves; ++k) {
    const std::size_t first = r.input_offset[k], n = r.input_offset[k + 1] - first;
    bool whole = true;
    for (std::size_t e = 1; e < n && whole; ++e) whole = in[first + e].id == in[first].id;
    if (whole && (in[first].id < 0 || g.nodes[in[first].id].size() == static_cast<int>(n))) {
      ids[k] = in[first].id;
    } else {
      std::vector<int> e(n, -1);
      for (std::size_t q = 0; q < n; ++q) e[q] = in[first + q].id;
      ids[k] = pack(g, e.data(), r.nodes[r.inputs[k]].dims);
    }
  }
  return ids;
}

/// Output nodes `res` of IR `r` at their flat positions (a tensor's node at each of its).
template <class IR>
constexpr std::vector<int> flat_output_ids(const IR& r, const std::vector<int>& res) {
  std::vector<int> flat(IR::output_count, -1);
  for (std::size_t o = 0; o < IR::output_leaves; ++o)
    for (std::size_t e = r.output_offset[o]; e < r.output_offset[o + 1]; ++e) flat[e] = res[o];
  return flat;
}

/// Runs program `Source` on flat inputs. With numbers (or SIMD batches) this is the
/// generated straight-line code; with tracers, the program is inlined into their trace as
/// it is (user ops stay single nodes), which is how transforms compose.
template <class Source, class L, std::size_t NI>
CALX_HOST_DEVICE constexpr CALX_INLINE auto run(const std::array<L, NI>& in) {
  using IRT = typename materialized<Source>::ir_type;
  static_assert(NI == IRT::input_count, "calx internal: flat input count mismatch");
  std::array<L, IRT::output_count> out{};
  if constexpr (std::is_same_v<L, tracer>) {
    constexpr const auto& r = ir_v<Source>;
    graph* g = nullptr;
    for (std::size_t i = 0; i < NI; ++i)
      if (in[i].graph != nullptr) g = in[i].graph;
    if (g == nullptr) trace_error("calx: a transformed function was traced with no traced input");
    const std::vector<int> res = flat_output_ids(r, replay(r, *g, input_ids(r, *g, in)));
    for (std::size_t o = 0; o < IRT::output_count; ++o) out[o] = tracer{res[o] < 0 ? nullptr : g, res[o]};
  } else {
    evaluate<materialized<lowered_t<Source, L>>::value>(in.data(), out.data());
  }
  return out;
}

}  // namespace detail
CALX_END_NAMESPACE

#endif // CALX_DETAIL_CALL_RUN_HPP
