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

/// Runs program `Source` on flat inputs. With numbers (or SIMD batches) this is the
/// generated straight-line code; with tracers, the program is inlined into their trace as
/// it is (user ops stay single nodes), which is how transforms compose.
template <class Source, class L, std::size_t NI>
CALX_HOST_DEVICE constexpr CALX_INLINE auto run(const std::array<L, NI>& in) {
  using IRT = typename materialized<Source>::ir_type;
  static_assert(NI == IRT::input_count, "calx internal: flat input count mismatch");
  std::array<L, IRT::output_count> out{};
  if constexpr (std::is_same_v<L, tracer>) {
    graph* g = nullptr;
    std::vector<int> ids(NI, -1);  // (n, value): clang 14 rejects vector(n) in constant evaluation
    for (std::size_t i = 0; i < NI; ++i) {
      if (in[i].graph != nullptr) g = in[i].graph;
      ids[i] = in[i].id;
    }
    if (g == nullptr) trace_error("calx: a transformed function was traced with no traced input");
    const std::vector<int> res = replay(ir_v<Source>, *g, ids);
    for (std::size_t o = 0; o < IRT::output_count; ++o) out[o] = tracer{res[o] < 0 ? nullptr : g, res[o]};
  } else {
    evaluate<materialized<lowered_t<Source, L>>::value>(in.data(), out.data());
  }
  return out;
}

}  // namespace detail
CALX_END_NAMESPACE

#endif // CALX_DETAIL_CALL_RUN_HPP
