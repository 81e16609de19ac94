/// @file detail/exec/fused_statement.hpp
/// @brief `fused_statement`: the statement straight-line code emits for a node fusion
/// touches (`fusion_of`, detail/exec/fusion.hpp): nothing for a fused node, a loop that
/// computes its fused operands, a reduction's fold, a streamed contraction
/// (detail/exec/streamed_contraction.hpp). `statement_of` (tensor_statement.hpp) routes such
/// nodes here.
#ifndef CALX_DETAIL_EXEC_FUSED_STATEMENT_HPP
#define CALX_DETAIL_EXEC_FUSED_STATEMENT_HPP

#include <calx/detail/internal_header_check.hpp>

#include <calx/detail/exec/fusion.hpp>
#include <calx/detail/exec/streamed_contraction.hpp>
#include <calx/detail/ir/ir.hpp>
#include <calx/detail/ir/shape.hpp>

#include <xsimd/xsimd.hpp>

#include <cstddef>
#include <type_traits>

CALX_BEGIN_NAMESPACE
namespace detail {

/// Node J's statement where fusion touches it: nothing for a fused node, one loop for a
/// loop; on numbers in memory on the host, xsimd batches of elements. A reduction's loop
/// folds its operand's elements as it computes them (four batches of partial results, as
/// `reduce_batches`; left to right where fewer). A folded reduction: nothing where its
/// operand's loop folded it (`loop_call_runs`), else that fold over the operand in memory.
struct fused_statement {
  template <const auto& IR, std::size_t J, class Get, class Put>
  CALX_HOST_DEVICE static CALX_INLINE void statement(const Get& get, const Put& put) {
    constexpr fused_role role = fusion_of<IR>[J];
    if constexpr (role == fused_role::folded &&
                  loop_call_runs<IR, static_cast<std::size_t>(IR.operand(J, 0)), std::remove_pointer_t<decltype(put.address())>>()) {
      // Its operand's loop wrote it.
    } else if constexpr ((role == fused_role::loop || role == fused_role::folded) && full_reduction(IR, J)) {
      constexpr std::size_t X = static_cast<std::size_t>(IR.operand(J, 0));
      using T = std::remove_pointer_t<decltype(put.address())>;  // the program's numbers
#ifndef __CUDA_ARCH__
      if constexpr (std::is_floating_point_v<T> && IR.nodes[X].size() >= 4 * static_cast<int>(xsimd::batch<T>::size)) {
        put(0, fused_fold<IR, J, X, T>(get));
        return;
      }
#endif
      constexpr shape in = IR.nodes[X].dims;  // a constant: device code may not read IR
      reduce_loop(in, -1, [&](int e) { return fused_operand<IR, static_cast<int>(X), T, 0, in.size()>(get, e); }, put,
                  [](const T& acc, const T& v) { return fold_traits<IR, J>::kernel(acc, v); });
    } else if constexpr (role == fused_role::loop && streamed_contraction(IR, J)) {
      streamed_contraction_statement<IR, J>(get, put.address());
    } else if constexpr (role == fused_role::loop) {
      using T = std::remove_pointer_t<decltype(put.address())>;  // the program's numbers
      constexpr int size = IR.nodes[J].size();
#ifndef __CUDA_ARCH__
      // Numbers (not SIMD lanes of samples), a real result (a mask's loop: one by one).
      if constexpr (std::is_floating_point_v<T> && IR.nodes[J].kind == value_kind::real) {
        if constexpr (loop_call_runs<IR, J, T>() && loop_fold_of<IR>[J] >= 0)
          put.folded(0, fused_loop_fold_call<IR, J, static_cast<std::size_t>(loop_fold_of<IR>[J]), T>(get, put.address()));
        else if constexpr (loop_call_runs<IR, J, T>())
          fused_loop_call<IR, J, T>(get, put.address());
        else
          fused_loop<IR, J, T>(get, put.address());
        return;
      }
#endif
      for (int e = 0; e < size; ++e) put(e, fused_value<IR, J, T, 0, size>(get, e));
    }
  }
};

}  // namespace detail
CALX_END_NAMESPACE

#endif  // CALX_DETAIL_EXEC_FUSED_STATEMENT_HPP
