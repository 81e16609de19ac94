/// @file detail/exec/scalar_stages.hpp
/// @brief The stages of a batched run that happen once, on the host, for every batched
/// backend (SIMD loops, CUDA kernels): `pre` (unbatched values the loop reads) before the
/// loop over samples, `post` (values that read sums over the batch) after it, and the
/// writing of outputs that are not per sample. See detail/exec/plan.hpp for the stages.
#ifndef CALX_DETAIL_EXEC_SCALAR_STAGES_HPP
#define CALX_DETAIL_EXEC_SCALAR_STAGES_HPP

#include <calx/detail/internal_header_check.hpp>

#include <calx/detail/exec/evaluate.hpp>
#include <calx/detail/exec/io.hpp>
#include <calx/detail/exec/node_kernel.hpp>
#include <calx/detail/exec/plan.hpp>
#include <calx/detail/exec/tensor_statement.hpp>
#include <calx/detail/ir/ir.hpp>
#include <calx/detail/static_for.hpp>

#include <cstddef>

// The readers and writers below are host code marked host-device only so that nvcc accepts
// their calls from the (host-device) statements; they never run on the device, and nvcc's
// warning that a device function would read the host's IR does not apply.
#if defined(__NVCC__)
#pragma nv_diagnostic push
#pragma nv_diag_suppress 20094
#endif

CALX_BEGIN_NAMESPACE
namespace detail {

/// The host stages of `Source` run on numbers of type `T`.
template <class Source, class T>
struct scalar_stages {
  static constexpr const auto& ir = materialized<Source>::value;
  static constexpr const auto& plan = planned<Source>::value;
  using IRT = typename materialized<Source>::ir_type;

  template <int S>
  static constexpr std::size_t nreal = static_cast<std::size_t>(plan.slots[S][0]);
  template <int S>
  static constexpr std::size_t nmask = static_cast<std::size_t>(plan.slots[S][1]);
  using pre_regs = registers<T, bool, nreal<0>, nmask<0>>;
  using post_regs = registers<T, bool, nreal<2>, nmask<2>>;

  /// Reads operands of pre and post nodes. (Host code, marked host-device because the
  /// statements it serves are: nvcc checks a .cu file's host calls from them.)
  struct scalar_reader {
    const pre_regs& pre;
    const post_regs& post;
    template <int Id>
    CALX_HOST_DEVICE CALX_INLINE const auto& operator()(operand_c<Id>, int e) const {
      const int s = plan.slot[Id] + e;
      constexpr bool mask = ir.nodes[Id].kind == value_kind::boolean;
      if constexpr (plan.stage_of[Id] == stage::pre) {
        if constexpr (mask)
          return pre.mask[s];
        else
          return pre.real[s];
      } else if constexpr (mask) {
        return post.mask[s];
      } else {
        return post.real[s];
      }
    }
    /// Where operand Id's elements are, for an op's results kernel.
    template <int Id>
    CALX_HOST_DEVICE CALX_INLINE const T* address(operand_c<Id> id) const {
      return &(*this)(id, 0);
    }
    template <int Id>
    static constexpr bool batched(operand_c<Id>) {
      return false;
    }
  };

  /// The registers that stage S writes.
  template <stage S>
  static CALX_INLINE auto& stage_registers(pre_regs& pre, post_regs& post) {
    if constexpr (S == stage::pre)
      return pre;
    else
      return post;
  }

  /// Every node of stage S, in order (each node's statement in the lambda, not in a
  /// function of its own: a function per node costs compile time).
  template <stage S>
  static CALX_INLINE void run_scalar_stage(pre_regs& pre, post_regs& post, const input_view<T>* in,
                                           const T* totals, std::size_t batch) {
    static_for<IRT::size>([&]<std::size_t J>(std::integral_constant<std::size_t, J>) {
      if constexpr (plan.stage_of[J] == S) {
        auto& dst = stage_registers<S>(pre, post);
        using Regs = std::remove_reference_t<decltype(dst)>;
        constexpr node n = ir.nodes[J];
        constexpr int s = plan.slot[J];
        if constexpr (n.op().role == batch_role::size) {
          dst.real[s] = static_cast<T>(batch);
        } else if constexpr (n.op().builtin == builtin_code::input) {
          for (int e = 0; e < n.size(); ++e) dst.real[s + e] = in[ir.input_offset[n.index()] + static_cast<std::size_t>(e)].value;
        } else if constexpr (n.op().builtin == builtin_code::constant) {
          if constexpr (n.kind == value_kind::boolean)
            dst.mask[s] = n.value != 0.0;
          else
            dst.real[s] = T(n.value);
        } else if constexpr (plan.reduction[J] >= 0) {
          for (int e = 0; e < n.size(); ++e) dst.real[s + e] = totals[plan.reduction[J] + e];
        } else {
          plain_statement_of<ir, J>::template statement<ir, J>(scalar_reader{pre, post}, register_writer<Regs, n.kind == value_kind::boolean>{dst, s});
        }
      }
    });
  }

  /// Writes the outputs that are not per sample: to their single value, and (`Columns`)
  /// broadcast into their column. A device backend fills columns on the device instead.
  template <bool Columns = true>
  static CALX_INLINE void write_once(const pre_regs& pre, const post_regs& post, const output_view<T>* out,
                                     std::size_t batch) {
    static_for<IRT::output_leaves>([&]<std::size_t K>(std::integral_constant<std::size_t, K>) {
      constexpr std::size_t o = ir.output_offset[K];
      constexpr int id = ir.outputs[K];
      if constexpr (plan.stage_of[id] != stage::loop) {
        for (int e = 0; e < ir.nodes[id].size(); ++e) {
          const T v = scalar_reader{pre, post}(operand_c<id>{}, e);
          const output_view<T>& column = out[o + static_cast<std::size_t>(e)];
          if (column.scalar != nullptr) *column.scalar = v;
          if (Columns && column.column != nullptr)
            for (std::size_t i = 0; i < batch; ++i) column.at(i) = v;
        }
      }
    });
  }
};

}  // namespace detail
CALX_END_NAMESPACE

#if defined(__NVCC__)
#pragma nv_diagnostic pop
#endif

#endif // CALX_DETAIL_EXEC_SCALAR_STAGES_HPP
