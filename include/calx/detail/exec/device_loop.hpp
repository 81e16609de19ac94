/// @file detail/exec/device_loop.hpp
/// @brief The loop stage of a batched run as one sample per thread (CUDA), with no CUDA
/// API in it: `sample(p, i, terms)` computes sample i's loop nodes from the values the
/// host's pre stage made, writes its outputs to their columns and its terms of each sum over
/// the batch to `terms`; `group_sum` adds a group's terms in the fixed order the kernel's
/// block uses. The CUDA backend (detail/exec/device_executor.hpp) launches these; with
/// CALX_DEVICE_ON_HOST the same functions run serially on the host, which is how the test
/// suite checks the device path on a machine without a GPU.
#ifndef CALX_DETAIL_EXEC_DEVICE_LOOP_HPP
#define CALX_DETAIL_EXEC_DEVICE_LOOP_HPP

#include <calx/detail/internal_header_check.hpp>

#include <calx/detail/exec/io.hpp>
#include <calx/detail/exec/node_kernel.hpp>
#include <calx/detail/exec/plan.hpp>
#include <calx/detail/exec/evaluate.hpp>
#include <calx/detail/exec/tensor_statement.hpp>
#include <calx/detail/ir/ir.hpp>
#include <calx/detail/static_for.hpp>

#include <cstddef>
#include <type_traits>

CALX_BEGIN_NAMESPACE
namespace detail {

/// Samples per reduction group, and threads per block: each group's terms are added by a
/// fixed tree, the group sums in sample order, so sums do not depend on the launch.
inline constexpr std::size_t device_group = 256;

/// The tree by which a group's `device_group` terms are added (in place; the sum ends in
/// v[0]): at step s, v[t] += v[t + s] for t < s, s halving from 128 to 1. The kernel runs
/// each step on the block's threads; the host does the same additions in the same order.
template <class T>
CALX_HOST_DEVICE inline void group_tree_step(T* v, std::size_t s, std::size_t t) {
  if (t < s) v[t] += v[t + s];
}
template <class T>
CALX_HOST_DEVICE inline T group_sum(T* v) {
  for (std::size_t s = device_group / 2; s > 0; s /= 2)
    for (std::size_t t = 0; t < s; ++t) group_tree_step(v, s, t);
  return v[0];
}

/// What every thread reads: a kernel's argument, copied to the device at launch. Its type
/// depends on sizes only, so the host's loop and the kernel's (templated on a copy of the
/// IR) agree on it.
template <class T, class PreRegs, std::size_t NI, std::size_t NO>
struct device_params {
  PreRegs pre;
  input_view<T> in[NI];
  output_view<T> out[NO];
  std::size_t batch;
  T* partial;  // the sums' terms added per group: `reductions` numbers per group, in group order
};

/// Program `*IR` (built-in ops only) with its batch plan `*Plan`, run as one sample per
/// thread on numbers of type `T`. Templated on where the IR is, not on the program's type:
/// a kernel's template arguments may not have a type that names the user's lambda (nvcc).
template <const auto* IR, const auto* Plan, class T>
struct device_loop {
  // IR-> and Plan-> below, not references to them: nvcc warns when a device function reads
  // a host class's reference member, even in a constant expression.
  using IRT = std::remove_cvref_t<decltype(*IR)>;
  static constexpr std::size_t reductions = static_cast<std::size_t>(Plan->reductions);
  static constexpr std::size_t inputs = IRT::input_count == 0 ? 1 : IRT::input_count;
  static constexpr std::size_t outputs = IRT::output_count == 0 ? 1 : IRT::output_count;
  template <int S>
  static constexpr std::size_t nreal = static_cast<std::size_t>(Plan->slots[S][0]);
  template <int S>
  static constexpr std::size_t nmask = static_cast<std::size_t>(Plan->slots[S][1]);
  using pre_regs = registers<T, bool, nreal<0>, nmask<0>>;  // as scalar_stages' (the host fills it)
  using regs = registers<T, bool, nreal<1>, nmask<1>>;

  using params = device_params<T, pre_regs, inputs, outputs>;

  /// Reads operands of loop nodes: the thread's registers, or pre values.
  struct reader {
    const pre_regs& pre;
    const regs& loop;
    template <int Id>
    CALX_HOST_DEVICE CALX_INLINE auto operator()(operand_c<Id>, int e) const {
      constexpr int s = Plan->slot[Id];
      constexpr bool mask = IR->nodes[Id].kind == value_kind::boolean;
      if constexpr (Plan->stage_of[Id] == stage::loop) {
        if constexpr (mask)
          return loop.mask[s + e];
        else
          return loop.real[s + e];
      } else if constexpr (mask) {
        return pre.mask[s + e];
      } else {
        return pre.real[s + e];
      }
    }
  };

  /// Writes element e of loop node J: to its register if anything reads it, and to the
  /// column of each output it is.
  template <std::size_t J>
  struct writer {
    regs& loop;
    const output_view<T>* out;
    std::size_t i;
    template <int K>
    CALX_HOST_DEVICE CALX_INLINE void to_outputs(int e, T v) const {
      if constexpr (K >= 0) {
        constexpr std::size_t o = IR->output_offset[K];
        out[o + static_cast<std::size_t>(e)].at(i) = v;
        to_outputs<Plan->next_output[K]>(e, v);
      }
    }
    template <class V>
    CALX_HOST_DEVICE CALX_INLINE void operator()(int e, const V& v) const {
      constexpr int s = Plan->slot[J];
      if constexpr (s >= 0) {
        if constexpr (IR->nodes[J].kind == value_kind::boolean)
          loop.mask[s + e] = v;
        else
          loop.real[s + e] = v;
      }
      constexpr int first = Plan->first_output[J];
      if constexpr (first >= 0) to_outputs<first>(e, v);
    }
  };

  template <std::size_t J>
  static CALX_HOST_DEVICE CALX_INLINE void step(const params& p, regs& loop, std::size_t i, T* terms) {
    constexpr node n = IR->nodes[J];
    constexpr int r = Plan->reduction[J];
    if constexpr (r >= 0) {
      for (int e = 0; e < n.size(); ++e) terms[r + e] = reader{p.pre, loop}(operand_c<IR->operand(J, 0)>{}, e);
    } else if constexpr (Plan->stage_of[J] != stage::loop) {
    } else if constexpr (n.op().builtin == builtin_code::input) {
      constexpr std::size_t first = IR->input_offset[n.index()];
      const writer<J> put{loop, p.out, i};
      for (int e = 0; e < n.size(); ++e) {
        const input_view<T>& v = p.in[first + static_cast<std::size_t>(e)];
        put(e, *reinterpret_cast<const T*>(v.base + i * v.stride));
      }
    } else {
      plain_statement_of<*IR, J>::template statement<*IR, J>(reader{p.pre, loop}, writer<J>{loop, p.out, i});
    }
  }

  /// Sample i (< p.batch): its loop nodes, its outputs, its terms of each sum. Outputs
  /// computed before the loop (they do not depend on the sample) are broadcast into their
  /// columns here too: device memory is written on the device.
  static CALX_HOST_DEVICE CALX_INLINE void sample(const params& p, std::size_t i, T* terms) {
    regs loop;
    static_for<IRT::size>([&]<std::size_t J>(std::integral_constant<std::size_t, J>) CALX_INLINE_LAMBDA {
      step<J>(p, loop, i, terms);
    });
    static_for<IRT::output_leaves>([&]<std::size_t K>(std::integral_constant<std::size_t, K>) CALX_INLINE_LAMBDA {
      constexpr int id = IR->outputs[K];
      if constexpr (Plan->stage_of[id] == stage::pre) {
        constexpr std::size_t o = IR->output_offset[K];
        for (int e = 0; e < IR->nodes[id].size(); ++e) {
          const output_view<T>& column = p.out[o + static_cast<std::size_t>(e)];
          if (column.column != nullptr) column.at(i) = reader{p.pre, loop}(operand_c<id>{}, e);
        }
      }
    });
  }
};

}  // namespace detail
CALX_END_NAMESPACE

#endif // CALX_DETAIL_EXEC_DEVICE_LOOP_HPP
