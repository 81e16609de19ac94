/// @file detail/exec/plan.hpp
/// @brief How a program with batched nodes runs (constexpr), whatever the backend: each
/// node's stage, register slots per stage, and the index of each reduction.
/// - pre:  unbatched nodes that need nothing batched; computed once, before the loop;
/// - loop: batched nodes, computed for every sample (SIMD lanes, CUDA threads), and the
///         accumulation of `batch_role::sum` nodes;
/// - post: unbatched nodes that read a sum; computed once, after the loop.
/// A batched node that reads a sum would need a second pass over the batch (e.g.
/// x - mean(x)); that is refused with a message.
/// A loop output is stored as it is computed (its element by element, as the hand-written
/// loop does), so it keeps no register unless another node reads it; large result
/// structures go through a stage instead (detail/exec/staged_outputs.hpp).
#ifndef CALX_DETAIL_EXEC_PLAN_HPP
#define CALX_DETAIL_EXEC_PLAN_HPP

#include <calx/detail/internal_header_check.hpp>

#include <calx/detail/ir/graph.hpp>
#include <calx/detail/ir/ir.hpp>
#include <calx/tracer.hpp>

#include <array>
#include <cstddef>

CALX_BEGIN_NAMESPACE
namespace detail {

enum class stage : unsigned char { pre, loop, post };

template <std::size_t N, std::size_t NO>
struct batch_plan {
  std::array<stage, N == 0 ? 1 : N> stage_of{};
  std::array<int, N == 0 ? 1 : N> slot{};       // register in its stage's file; -1: none
  std::array<int, N == 0 ? 1 : N> reduction{};  // accumulator index of sum nodes, else -1
  // The outputs of a node, as a chain: its first output, then each output's next one (-1 ends).
  std::array<int, N == 0 ? 1 : N> first_output{};
  std::array<int, NO == 0 ? 1 : NO> next_output{};
  int slots[3][2] = {};                         // [stage][real, mask] register counts
  int reductions = 0;
  bool two_pass = false;  // a per-sample value reads a sum over the batch (refused_two_pass)
};

/// The message for a program that needs two passes over its batch.
constexpr void refuse_two_pass(bool now) {
  if (now)
    trace_error("calx: a per-sample value depends on a sum over the same batch (such as "
                "x - mean(x)); that needs two passes over the batch, which calx does not do yet");
}

template <class IR>
constexpr batch_plan<IR::size, IR::output_leaves> make_batch_plan(const IR& r) {
  constexpr std::size_t N = IR::size;
  batch_plan<N, IR::output_leaves> plan;
  for (int& f : plan.first_output) f = -1;
  for (std::size_t k = IR::output_leaves; k-- > 0;) {  // backwards, so each chain runs in output order
    const auto id = static_cast<std::size_t>(r.outputs[k]);
    plan.next_output[k] = plan.first_output[id];
    plan.first_output[id] = static_cast<int>(k);
  }
  for (std::size_t j = 0; j < N; ++j) {
    const node& n = r.nodes[j];
    plan.reduction[j] = -1;
    stage s = stage::pre;
    if (n.batched) {
      s = stage::loop;
      for (int i = 0; i < n.arity; ++i)
        if (plan.stage_of[r.operand(j, i)] == stage::post) plan.two_pass = true;
    } else if (n.op().role == batch_role::sum) {
      s = stage::post;
      plan.reduction[j] = plan.reductions;  // one accumulator per element
      plan.reductions += n.size();
    } else if (n.op().role == batch_role::size) {
      s = stage::pre;  // its operand only names the batch; the value is known up front
    } else {
      for (int i = 0; i < n.arity; ++i)
        if (plan.stage_of[r.operand(j, i)] == stage::post) s = stage::post;
    }
    plan.stage_of[j] = s;
  }
  // Each stage has its own register files. A value read by a later stage, or by the loop
  // (which reads pre values on every iteration), keeps its register; a sum's accumulator
  // lives in the loop, its total in a post register.
  allocate_registers(
      r, [](std::size_t p) { return p; }, [&](std::size_t j) { return static_cast<int>(plan.stage_of[j]); },
      [&](std::size_t j) { return r.nodes[j].op().role != batch_role::size; },
      [&](std::size_t j) {
        if (plan.first_output[j] < 0) return register_need::until_read;
        return plan.stage_of[j] == stage::loop ? register_need::if_read : register_need::until_end;
      },
      [&](std::size_t j, int s) { plan.slot[j] = s; },
      [&](int st, int k, int c) {
        if (st < 3) plan.slots[st][k] = c;
      },
      [](std::size_t) { return false; });  // no fusion in the batched executor
  return plan;
}

/// The plan of `Source`'s batched program as made; `planned<Source>::value`, the executors',
/// stops at the refusal of a program that needs two passes (batched_call reports it from
/// this one first, as the one error).
template <class Source>
inline constexpr auto unchecked_plan = make_batch_plan(materialized<Source>::value);
/// The one error for `Source`, a program that needs two passes (a constant to initialize).
template <class Source>
constexpr int report_two_pass() {
  refuse_two_pass(unchecked_plan<Source>.two_pass);
  return 0;
}
template <class Source>
struct planned {
  static constexpr auto value = [] {
    refuse_two_pass(unchecked_plan<Source>.two_pass);
    return unchecked_plan<Source>;
  }();
};

}  // namespace detail
CALX_END_NAMESPACE

#endif // CALX_DETAIL_EXEC_PLAN_HPP
