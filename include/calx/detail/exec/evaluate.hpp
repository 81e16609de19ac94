/// @file detail/exec/evaluate.hpp
/// @brief Straight-line codegen: a program's constexpr IR becomes one statement per node,
/// expanded over an index sequence, reading each node's op, operands and constants as
/// compile-time constants. No tape, no heap, no virtual calls, no runtime dispatch on ops:
/// after inlining the optimiser sees the straight-line code a person would write. Works for
/// float, double, xsimd batches of both, and in CUDA device code.
#ifndef CALX_DETAIL_EXEC_EVALUATE_HPP
#define CALX_DETAIL_EXEC_EVALUATE_HPP

#include <calx/detail/internal_header_check.hpp>

#include <calx/detail/exec/node_kernel.hpp>
#include <calx/detail/exec/tensor_statement.hpp>
#include <calx/detail/ir/graph.hpp>
#include <calx/detail/ir/ir.hpp>
#include <calx/detail/static_for.hpp>

#include <cstddef>
#include <type_traits>
#include <utility>

CALX_BEGIN_NAMESPACE
namespace detail {

template <class T, class M, std::size_t NR, std::size_t NB>
struct registers {
  T real[NR == 0 ? 1 : NR];
  M mask[NB == 0 ? 1 : NB];
};

/// Reads element e of an operand from straight-line code's registers; an input is read
/// where it is (a tensor input is not copied).
template <const auto& IR, class Regs, class T>
struct register_reader {
  const Regs& r;
  const T* in;
  template <int Id>
  CALX_HOST_DEVICE CALX_INLINE const auto& operator()(operand_c<Id>, int e) const {
    if constexpr (IR.nodes[Id].op().builtin == builtin_code::input && IR.nodes[Id].kind != value_kind::boolean)
      return in[IR.input_offset[IR.nodes[Id].index()] + static_cast<std::size_t>(e)];
    else if constexpr (IR.nodes[Id].kind == value_kind::boolean)
      return r.mask[IR.nodes[Id].slot + e];
    else
      return r.real[IR.nodes[Id].slot + e];
  }
};

/// Writes element e of node J.
template <const auto& IR, std::size_t J, class Regs>
struct register_writer {
  Regs& r;
  template <class V>
  CALX_HOST_DEVICE CALX_INLINE void operator()(int e, const V& v) const {
    if constexpr (IR.nodes[J].kind == value_kind::boolean)
      r.mask[IR.nodes[J].slot + e] = v;
    else
      r.real[IR.nodes[J].slot + e] = v;
  }
};

template <const auto& IR, std::size_t J, class T, class Regs>
CALX_HOST_DEVICE CALX_INLINE void step(Regs& r, const T* in) {
  using M = std::remove_cvref_t<decltype(r.mask[0])>;
  constexpr int slot = IR.nodes[J].slot;
  // Ops are told apart by `builtin` codes here: device code may read a descriptor's
  // fields in constant expressions, but not take a host variable's address.
  constexpr int code = IR.nodes[J].op().builtin;
  if constexpr (code == builtin_code::input) {
    // read in place by register_reader
  } else if constexpr (code == builtin_code::constant && IR.nodes[J].kind == value_kind::boolean) {
    r.mask[slot] = M(IR.nodes[J].value != 0.0);
  } else if constexpr (code == builtin_code::constant) {
    r.real[slot] = T(IR.nodes[J].value);
  } else {
    node_statement<IR, J>(register_reader<IR, Regs, T>{r, in}, register_writer<IR, J, Regs>{r});
  }
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

/// The flat outputs of output K (every element of its node).
template <const auto& IR, class T, class Regs>
struct output_fn {
  const Regs& r;
  const T* in;
  T* out;
  template <std::size_t K>
  CALX_HOST_DEVICE CALX_INLINE void operator()(std::integral_constant<std::size_t, K>) const {
    constexpr std::size_t o = IR.output_offset[K];
    constexpr int id = IR.outputs[K];
    for (int e = 0; e < IR.nodes[id].size(); ++e) out[o + static_cast<std::size_t>(e)] = register_reader<IR, Regs, T>{r, in}(operand_c<id>{}, e);
  }
};

/// Evaluates the program `IR` on flat inputs `in[0..NI)` into flat outputs `out[0..NO)`.
template <const auto& IR, class T>
CALX_HOST_DEVICE CALX_INLINE void evaluate(const T* in, T* out) {
  using IRT = std::remove_cvref_t<decltype(IR)>;
  registers<T, mask_t<T>, static_cast<std::size_t>(IR.real_slots), static_cast<std::size_t>(IR.bool_slots)> r;
  static_for<IRT::size>(step_fn<IR, T, decltype(r)>{r, in});
  static_for<IRT::output_leaves>(output_fn<IR, T, decltype(r)>{r, in, out});
}

}  // namespace detail
CALX_END_NAMESPACE

#endif // CALX_DETAIL_EXEC_EVALUATE_HPP
