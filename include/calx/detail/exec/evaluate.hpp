/// @file detail/exec/evaluate.hpp
/// @brief Straight-line codegen: a program's constexpr IR becomes one statement per node,
/// expanded over an index sequence, reading each node's op, operands and constants as
/// compile-time constants. No tape, no virtual calls, no runtime dispatch on ops, no heap
/// (but for the registers of a program over large tensors, see `stack_registers_max`):
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

#include <array>
#include <cstddef>
#include <memory>
#include <type_traits>
#include <utility>

CALX_BEGIN_NAMESPACE
namespace detail {

template <class T, class M, std::size_t NR, std::size_t NB>
struct registers {
  alignas(64) T real[NR == 0 ? 1 : NR];  // tensors' registers start on cache lines (allocate_registers)
  M mask[NB == 0 ? 1 : NB];
};

/// Which inputs the caller passed as `int`s, and where (`integer_inputs`): an index op reads
/// its indices from there, not converted to reals and back (`register_reader::index`).
struct no_integer_inputs {
  static constexpr bool holds(std::size_t) { return false; }
};
template <class Marks>  // Marks::value[k]: input k is `int`s
struct integer_inputs {
  const int* const* at;
  static constexpr bool holds(std::size_t k) { return Marks::value[k]; }
};

/// Where straight-line code reads input k's element e: in the caller's memory, one
/// pointer per input (a tensor input is not copied)...
template <class T, class Ints = no_integer_inputs>
struct input_pointers {
  const T* const* at;
  Ints ints{};
  CALX_HOST_DEVICE CALX_INLINE const T& operator()(std::size_t k, int e) const { return at[k][e]; }
};
/// ...or in an array of one value per scalar input (a loop's step: no input's address is
/// stored anywhere, so once inlined the values stay in registers from step to step)...
template <class T>
struct input_values {
  static constexpr bool flat = true;
  const T* at;
  CALX_HOST_DEVICE CALX_INLINE const T& operator()(std::size_t k, int e) const { return at[k + static_cast<std::size_t>(e)]; }
};
/// ...or, by value, from `read(std::integral_constant<std::size_t, F>{}, e)` for the input
/// element at flat position F + e, where the statement that reads it runs (a loop step's
/// per-step inputs: a load placed before a call that is read after it costs a spill and a
/// reload). Not for a program whose results kernels take their operands' addresses
/// (`reads_inputs_in_place`).
template <class Read>
struct input_reads {
  static constexpr bool by_value = true;
  Read read;
};

/// Whether program `r` can read its inputs through `input_reads`: no op of it takes its
/// operands' addresses (a loop nested in the step).
template <class IR>
constexpr bool reads_inputs_in_place(const IR& r) {
  for (const node& n : r.nodes)
    if (n.op().has_results_kernel()) return false;
  return true;
}

/// Reads element e of an operand from straight-line code's registers, or from the inputs.
template <const auto& IR, class Regs, class In>
struct register_reader {
  const Regs& r;
  In in;
  template <int Id>
  CALX_HOST_DEVICE CALX_INLINE decltype(auto) operator()(operand_c<Id>, int e) const {
    if constexpr (IR.nodes[Id].op().builtin == builtin_code::input && IR.nodes[Id].kind != value_kind::boolean)
    {
      if constexpr (requires { In::by_value; }) {
        constexpr std::size_t flat = IR.input_offset[IR.nodes[Id].index()];
        return in.read(std::integral_constant<std::size_t, flat>{}, IR.nodes[Id].size() == 1 ? 0 : e);
      } else if constexpr (requires { In::flat; }) {
        constexpr std::size_t flat = IR.input_offset[IR.nodes[Id].index()];
        if constexpr (IR.nodes[Id].size() == 1)
          return in(flat, 0);
        else
          return in(flat, e);
      } else {
        return in(IR.nodes[Id].index(), e);
      }
    }
    else if constexpr (IR.nodes[Id].kind == value_kind::boolean)
      return r.mask[IR.nodes[Id].slot + e];
    else
      return r.real[IR.nodes[Id].slot + e];
  }
  /// Element e of operand Id as an index (an index op's indices): the caller's `int` where
  /// the operand is an input passed as `int`s, else its value.
  template <int Id>
  CALX_HOST_DEVICE CALX_INLINE auto index(operand_c<Id> id, int e) const {
    if constexpr (IR.nodes[Id].op().builtin == builtin_code::input && requires { in.ints; }) {
      if constexpr (decltype(in.ints)::holds(IR.nodes[Id].index()))
        return in.ints.at[IR.nodes[Id].index()][e];
      else
        return (*this)(id, e);
    } else {
      return (*this)(id, e);
    }
  }
  /// Where operand Id's elements are (consecutive), for an op's results kernel.
  template <int Id>
  CALX_HOST_DEVICE CALX_INLINE const auto* address(operand_c<Id> id) const {
    return &(*this)(id, 0);
  }
  template <int Id>
  static constexpr bool batched(operand_c<Id>) {
    return false;
  }
};

/// Writes element e of a node whose elements start at register `slot` (of the masks'
/// registers if `Mask`). Not a template on the node: the slot is a constant where the writer
/// is made, which inlining propagates, and a writer type per node would be one more function
/// per node for the compiler to instantiate.
template <class Regs, bool Mask>
struct register_writer {
  Regs& r;
  int slot;
  template <class V>
  CALX_HOST_DEVICE CALX_INLINE void operator()(int e, const V& v) const {
    if constexpr (Mask)
      r.mask[slot + e] = v;
    else
      r.real[slot + e] = v;
  }
  /// Where the node's elements go (consecutive), for an op's results kernel.
  CALX_HOST_DEVICE CALX_INLINE auto* address() const { return &r.real[slot]; }
};

/// Writes element e of an output straight into the caller's memory (`direct_output`).
template <class T>
struct output_writer {
  T* at;
  template <class V>
  CALX_HOST_DEVICE CALX_INLINE void operator()(int e, const V& v) const {
    at[e] = v;
  }
  CALX_HOST_DEVICE CALX_INLINE T* address() const { return at; }
};

/// For each node of `r`, the output K it is written to directly, or -1: a real value, not an
/// input, that is one output and that no node reads. Its statement then writes the
/// caller's memory (a results tensor) instead of a register that the end copies out: a
/// pass over the output saved (for RK4 on 1000-vectors, 4 KB a call). The callers' outputs
/// never overlap the inputs (fresh results, a loop's own locals), so that writing an
/// output before the last input is read is safe.
template <class IR>
constexpr std::array<int, IR::size> direct_outputs(const IR& r) {
  std::array<int, IR::size> k{}, reads{}, times{};
  for (std::size_t j = 0; j < IR::size; ++j) {
    k[j] = -1;
    for (int i = 0; i < r.nodes[j].arity; ++i) ++reads[static_cast<std::size_t>(r.operand(j, i))];
  }
  for (int o : r.outputs)
    if (o >= 0) ++times[static_cast<std::size_t>(o)];
  for (std::size_t K = 0; K < r.outputs.size(); ++K) {
    const int o = r.outputs[K];
    if (o < 0) continue;
    const node& n = r.nodes[static_cast<std::size_t>(o)];
    if (times[static_cast<std::size_t>(o)] == 1 && reads[static_cast<std::size_t>(o)] == 0 &&
        n.kind == value_kind::real && !n.is_input())
      k[static_cast<std::size_t>(o)] = static_cast<int>(K);
  }
  return k;
}
template <const auto& IR>
inline constexpr auto direct_output = direct_outputs(IR);

/// A loop's writer and the writer of the reduction that it folds (`loop_folds`): `folded`.
template <class Own, class Fold>
struct folding_writer : Own {
  Fold folded;
};

/// Node J's writer: its register, or its output (`direct_output`): `out[K]` (pointers per
/// output) or `out + offset` (`Values`: the outputs' numbers one after another); with the
/// writer of the reduction its loop folds (`loop_fold_of`).
template <const auto& IR, std::size_t J, bool Values, bool Fold = true, class Regs, class Out>
CALX_HOST_DEVICE CALX_INLINE auto writer_of(Regs& r, const Out& out) {
  constexpr int K = direct_output<IR>[J];
  if constexpr (Fold && loop_fold_of<IR>[J] >= 0) {
    using Own = decltype(writer_of<IR, J, Values, false>(r, out));
    using Folded = decltype(writer_of<IR, static_cast<std::size_t>(loop_fold_of<IR>[J]), Values, false>(r, out));
    return folding_writer<Own, Folded>{writer_of<IR, J, Values, false>(r, out),
                                       writer_of<IR, static_cast<std::size_t>(loop_fold_of<IR>[J]), Values, false>(r, out)};
  } else if constexpr (K < 0)
    return register_writer<Regs, IR.nodes[J].kind == value_kind::boolean>{r, std::integral_constant<int, IR.nodes[J].slot>::value};
  else if constexpr (Values)
    return output_writer<std::remove_pointer_t<Out>>{out + IR.output_offset[static_cast<std::size_t>(K)]};
  else
    return output_writer<std::remove_pointer_t<std::remove_cvref_t<decltype(out[0])>>>{out[K]};
}

/// The order of `IR`'s statements (see `straight_line_statements`), which its registers assume.
template <const auto& IR>
inline constexpr auto statement_order = straight_line_statements(IR, loop_fold_of<IR>);

/// The statements at positions Base + P... of `statement_order`, as one fold of statement
/// calls (`statement_of`): a node is one function for the compiler to instantiate, not two
/// (the statement reads an input in place and writes a constant's register itself).
template <const auto& IR, std::size_t Base, bool Values, class In, class Regs, class Out, std::size_t... P>
CALX_HOST_DEVICE CALX_INLINE void statements(Regs& r, const In& in, const Out& out, std::index_sequence<P...>) {
  (statement_of<IR, static_cast<std::size_t>(statement_order<IR>[Base + P])>::template statement<
       IR, static_cast<std::size_t>(statement_order<IR>[Base + P])>(
       register_reader<IR, Regs, In>{r, in},
       writer_of<IR, static_cast<std::size_t>(statement_order<IR>[Base + P]), Values>(r, out)),
   ...);
}

template <const auto& IR, bool Values, class In, class Regs, class Out, std::size_t... B>
CALX_HOST_DEVICE CALX_INLINE void statement_blocks(Regs& r, const In& in, const Out& out, std::index_sequence<B...>) {
  constexpr std::size_t N = std::remove_cvref_t<decltype(IR)>::size;
  (statements<IR, B * fold_block, Values>(r, in, out, std::make_index_sequence<fold_block_size(N, B)>{}), ...);
}

/// Output K (every element of its node), to `out[K][e]`; with `Values`, a scalar output to
/// `out[K]`.
template <const auto& IR, class In, class Regs, class Out, bool Values = false>
struct output_fn {
  const Regs& r;
  In in;
  Out out;
  template <std::size_t K>
  CALX_HOST_DEVICE CALX_INLINE void operator()(std::integral_constant<std::size_t, K>) const {
    constexpr int id = IR.outputs[K];
    if constexpr (direct_output<IR>[static_cast<std::size_t>(id)] == static_cast<int>(K)) {
      // written where it was computed
    } else if constexpr (Values) {
      constexpr std::size_t offset = IR.output_offset[K];
      if constexpr (IR.nodes[id].size() == 1)
        out[offset] = register_reader<IR, Regs, In>{r, in}(operand_c<id>{}, 0);
      else
        for (int e = 0; e < IR.nodes[id].size(); ++e)
          out[offset + static_cast<std::size_t>(e)] = register_reader<IR, Regs, In>{r, in}(operand_c<id>{}, e);
    } else
      for (int e = 0; e < IR.nodes[id].size(); ++e) out[K][e] = register_reader<IR, Regs, In>{r, in}(operand_c<id>{}, e);
  }
};

template <const auto& IR, class In, class Regs, class Out, bool Values = false>
CALX_HOST_DEVICE CALX_INLINE void evaluate_in(Regs& r, In in, Out out) {
  using IRT = std::remove_cvref_t<decltype(IR)>;
  statement_blocks<IR, Values>(r, in, out, typename fold_blocks<IRT::size>::type{});
  static_for<IRT::output_leaves>(output_fn<IR, In, Regs, Out, Values>{r, in, out});
}

/// Registers larger than this go on the heap (host code): a program over large tensors
/// would overflow a thread's stack, and one allocation is small beside its work.
inline constexpr std::size_t stack_registers_max = std::size_t{1} << 18;

/// Evaluates the program `IR`: input k is read from `in[k][0 .. its size)` (and, where
/// `ints` holds it, as `int`s from there), output k written to `out[k][0 .. its size)` (one
/// pointer per value, in the IR's order).
template <const auto& IR, class T, class Ints = no_integer_inputs>
CALX_HOST_DEVICE CALX_INLINE void evaluate(const T* const* in, T* const* out, Ints ints = {}) {
  using Regs = registers<T, mask_t<T>, static_cast<std::size_t>(IR.real_slots), static_cast<std::size_t>(IR.bool_slots)>;
#ifndef __CUDA_ARCH__
  constexpr bool on_heap = sizeof(Regs) > stack_registers_max;
#else
  constexpr bool on_heap = false;
#endif
  if constexpr (on_heap) {
    const std::unique_ptr<Regs> r(new Regs);
    evaluate_in<IR>(*r, input_pointers<T, Ints>{in, ints}, out);
  } else {
    Regs r;
    evaluate_in<IR>(r, input_pointers<T, Ints>{in, ints}, out);
  }
}

/// Evaluates a program of scalar inputs and outputs on values: input k is `in[k]`, output
/// k is written to `out[k]`. A loop runs its step through this: the values are the loop's
/// own locals, whose addresses go nowhere, so the compiler keeps them in registers.
template <const auto& IR, class T>
CALX_HOST_DEVICE CALX_INLINE void evaluate_values(const T* in, T* out) {
  using Regs = registers<T, mask_t<T>, static_cast<std::size_t>(IR.real_slots), static_cast<std::size_t>(IR.bool_slots)>;
  Regs r;
  evaluate_in<IR, input_values<T>, Regs, T*, true>(r, input_values<T>{in}, out);
}

/// The same with the inputs read through `read` (see `input_reads`).
template <const auto& IR, class T, class Read>
CALX_INLINE void evaluate_reading(const Read& read, T* out) {
  using Regs = registers<T, mask_t<T>, static_cast<std::size_t>(IR.real_slots), static_cast<std::size_t>(IR.bool_slots)>;
  Regs r;
  evaluate_in<IR, input_reads<Read>, Regs, T*, true>(r, input_reads<Read>{read}, out);
}

}  // namespace detail
CALX_END_NAMESPACE

#endif // CALX_DETAIL_EXEC_EVALUATE_HPP
