/// @file detail/codegen.hpp
/// @brief Codegen: a program's constexpr IR becomes one statement per node, expanded over
/// an index sequence, reading each node's op, operands and constants as compile-time
/// constants. No tape, no heap, no virtual calls, no runtime dispatch on ops: after
/// inlining the optimiser sees the straight-line code a person would write. Works for
/// float, double, xsimd batches of both, and in CUDA device code.
#ifndef CALX_DETAIL_CODEGEN_HPP
#define CALX_DETAIL_CODEGEN_HPP

#include <calx/detail/internal_header_check.hpp>

#include <calx/detail/graph.hpp>
#include <calx/detail/static_for.hpp>
#include <calx/op_traits.hpp>

#include <cstddef>
#include <type_traits>
#include <utility>

CALX_BEGIN_NAMESPACE
namespace detail {

/// The mask type that goes with a value type: bool for scalars, the batch's own mask
/// type (e.g. xsimd::batch_bool) for SIMD batches.
template <class T>
struct mask_of {
  using type = decltype(std::declval<const T&>() < std::declval<const T&>());
};
template <class T>
using mask_t = typename mask_of<T>::type;

template <class T, class M, std::size_t NR, std::size_t NB>
struct registers {
  T real[NR == 0 ? 1 : NR];
  M mask[NB == 0 ? 1 : NB];
};

template <const auto& IR, int Id, class Regs>
CALX_HOST_DEVICE CALX_INLINE const auto& operand_value(const Regs& r) {
  constexpr node a = IR.nodes[Id];
  if constexpr (a.kind == value_kind::boolean)
    return r.mask[a.slot];
  else
    return r.real[a.slot];
}

template <const auto& IR, std::size_t J, class Regs>
CALX_HOST_DEVICE CALX_INLINE auto kernel_value(const Regs& r) {
  constexpr node n = IR.nodes[J];
  using traits = op_traits<op_at_t<n.op>>;
  if constexpr (traits::arity == 1)
    return traits::kernel(operand_value<IR, n.in[0]>(r));
  else if constexpr (traits::arity == 2)
    return traits::kernel(operand_value<IR, n.in[0]>(r), operand_value<IR, n.in[1]>(r));
  else
    return traits::kernel(operand_value<IR, n.in[0]>(r), operand_value<IR, n.in[1]>(r),
                          operand_value<IR, n.in[2]>(r));
}

template <const auto& IR, std::size_t J, class T, class Regs>
CALX_HOST_DEVICE CALX_INLINE void step(Regs& r, const T* in) {
  constexpr node n = IR.nodes[J];
  using M = std::remove_cvref_t<decltype(r.mask[0])>;
  if constexpr (n.op == input_opcode)
    r.real[n.slot] = in[static_cast<std::size_t>(n.value)];
  else if constexpr (n.op == constant_opcode && n.kind == value_kind::boolean)
    r.mask[n.slot] = M(n.value != 0.0);
  else if constexpr (n.op == constant_opcode)
    r.real[n.slot] = T(n.value);
  else if constexpr (n.kind == value_kind::boolean)
    r.mask[n.slot] = kernel_value<IR, J>(r);
  else
    r.real[n.slot] = kernel_value<IR, J>(r);
}

/// One node's statement (a function object rather than a lambda: device code calls it).
template <const auto& IR, class T, class Regs>
struct step_fn {
  Regs& r;
  const T* in;
  template <std::size_t J>
  CALX_HOST_DEVICE CALX_INLINE void operator()(std::integral_constant<std::size_t, J>) const {
    step<IR, J>(r, in);
  }
};

template <const auto& IR, class T, class Regs>
struct output_fn {
  const Regs& r;
  T* out;
  template <std::size_t O>
  CALX_HOST_DEVICE CALX_INLINE void operator()(std::integral_constant<std::size_t, O>) const {
    out[O] = r.real[IR.nodes[IR.outputs[O]].slot];
  }
};

/// Evaluates the program `IR` on flat inputs `in[0..NI)` into flat outputs `out[0..NO)`.
template <const auto& IR, class T>
CALX_HOST_DEVICE CALX_INLINE void evaluate(const T* in, T* out) {
  using IRT = std::remove_cvref_t<decltype(IR)>;
  registers<T, mask_t<T>, static_cast<std::size_t>(IR.real_slots), static_cast<std::size_t>(IR.bool_slots)> r;
  static_for<IRT::size>(step_fn<IR, T, decltype(r)>{r, in});
  static_for<IRT::output_count>(output_fn<IR, T, decltype(r)>{r, out});
}

}  // namespace detail
CALX_END_NAMESPACE

#endif // CALX_DETAIL_CODEGEN_HPP
