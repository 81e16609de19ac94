/// @file detail/batch_plan.hpp
/// @brief How a program with batched nodes runs (constexpr): each node's stage, register
/// slots per stage, and the index of each reduction.
/// - pre:  unbatched nodes that need nothing batched; computed once, before the loop;
/// - loop: batched nodes, computed for every sample (SIMD lanes), and the accumulation of
///         `batch_sum` nodes;
/// - post: unbatched nodes that read a `batch_sum`; computed once, after the loop.
/// A batched node that reads a `batch_sum` would need a second pass over the batch
/// (e.g. x - mean(x)); that is refused with a message.
#ifndef CALX_DETAIL_BATCH_PLAN_HPP
#define CALX_DETAIL_BATCH_PLAN_HPP

#include <calx/detail/internal_header_check.hpp>

#include <calx/detail/graph.hpp>
#include <calx/detail/ir.hpp>
#include <calx/op_traits.hpp>
#include <calx/tracer.hpp>

#include <array>
#include <cstddef>
#include <vector>

CALX_BEGIN_NAMESPACE
namespace detail {

enum class stage : unsigned char { pre, loop, post };

template <std::size_t N>
struct batch_plan {
  std::array<stage, N == 0 ? 1 : N> stage_of{};
  std::array<int, N == 0 ? 1 : N> slot{};       // register in its stage's file
  std::array<int, N == 0 ? 1 : N> reduction{};  // accumulator index of batch_sum nodes, else -1
  int slots[3][2] = {};                         // [stage][real, mask] register counts
  int reductions = 0;
};

template <class IR>
constexpr batch_plan<IR::size> make_batch_plan(const IR& r) {
  constexpr std::size_t N = IR::size;
  batch_plan<N> plan;
  constexpr std::uint16_t sum_code = opcode_v<batch_sum_op>;
  constexpr std::uint16_t size_code = opcode_v<batch_size_op>;
  for (std::size_t j = 0; j < N; ++j) {
    const node& n = r.nodes[j];
    plan.reduction[j] = -1;
    stage s = stage::pre;
    if (n.batched) {
      s = stage::loop;
      for (int a : n.in)
        if (a >= 0 && plan.stage_of[a] == stage::post)
          trace_error("calx: a per-sample value depends on a sum over the same batch (such as "
                      "x - mean(x)); that needs two passes over the batch, which calx does not do yet");
    } else if (n.op == sum_code) {
      s = stage::post;
      plan.reduction[j] = plan.reductions++;
    } else if (n.op == size_code) {
      s = stage::pre;  // its operand only names the batch; the value is known up front
    } else {
      for (int a : n.in)
        if (a >= 0 && plan.stage_of[a] == stage::post) s = stage::post;
    }
    plan.stage_of[j] = s;
  }
  // Registers: each stage has its own files. A value read by a later stage, or by the
  // loop (which reads pre values on every iteration), is never freed.
  std::array<int, N == 0 ? 1 : N> last_use{};
  std::array<bool, N == 0 ? 1 : N> pinned{};
  for (std::size_t j = 0; j < N; ++j) last_use[j] = static_cast<int>(j);
  for (std::size_t j = 0; j < N; ++j)
    for (int a : r.nodes[j].in)
      if (a >= 0 && r.nodes[j].op != size_code) {
        last_use[a] = static_cast<int>(j);
        if (plan.stage_of[a] != plan.stage_of[j]) pinned[a] = true;
      }
  for (int o : r.outputs) pinned[o] = true;
  for (int st = 0; st < 3; ++st) {
    std::vector<int> pool[2];
    for (std::size_t j = 0; j < N; ++j) {
      if (static_cast<int>(plan.stage_of[j]) != st) continue;
      // A batch_sum's accumulator lives in the loop, its total in a post register.
      const node& n = r.nodes[j];
      const int k = n.kind == value_kind::boolean ? 1 : 0;
      if (pool[k].empty()) {
        plan.slot[j] = plan.slots[st][k]++;
      } else {
        plan.slot[j] = pool[k].back();
        pool[k].pop_back();
      }
      for (int i = 0; i < 3 && n.op != size_code; ++i) {
        const int a = n.in[i];
        if (a < 0 || pinned[a] || last_use[a] != static_cast<int>(j) || static_cast<int>(plan.stage_of[a]) != st) continue;
        bool seen = false;
        for (int q = 0; q < i; ++q) seen = seen || n.in[q] == a;
        if (!seen) pool[r.nodes[a].kind == value_kind::boolean ? 1 : 0].push_back(plan.slot[a]);
      }
    }
  }
  return plan;
}

template <class Source>
struct planned {
  static constexpr auto value = make_batch_plan(materialized<Source>::value);
};

}  // namespace detail
CALX_END_NAMESPACE

#endif // CALX_DETAIL_BATCH_PLAN_HPP
