/// @file detail/ir/op_info.hpp
/// @brief `op_info`: what the passes and the backends know of an op, one constant object per
/// op type. An IR node points at its op's `op_info`; the rules are constexpr function pointers
/// over node ids, so a pass calls any op's rule, built-in or user-defined, without a closed
/// list of ops. Kernels are not function pointers for built-in ops: codegen names their type
/// from `builtin`, a small index, and calls the kernel template for any value type (float,
/// double, xsimd batches, CUDA device code). The descriptors are made from `op_traits<Op>` in
/// detail/ops/describe.hpp; docs/design.md ("Ops") explains the choice.
#ifndef CALX_DETAIL_IR_OP_INFO_HPP
#define CALX_DETAIL_IR_OP_INFO_HPP

#include <calx/detail/internal_header_check.hpp>

#include <calx/detail/ir/shape.hpp>

#include <cstddef>
#include <cstdint>

CALX_BEGIN_NAMESPACE
namespace detail {

struct graph;
struct node;

/// A program's arrays seen through pointers into its static constexpr IR, its sizes as
/// values: how a descriptor names an op's sub-program without naming its type. Code
/// generation makes a typed copy where it needs one (`program_copy`, detail/ir/ir.hpp).
struct program_view {
  const node* nodes = nullptr;
  const int* operands = nullptr;
  const int* inputs = nullptr;
  const int* outputs = nullptr;
  const std::size_t* input_offset = nullptr;
  const std::size_t* output_offset = nullptr;
  std::size_t sizes[6] = {};  // the `ir` type's: nodes, operands, inputs, outputs, flat inputs, flat outputs
  int real_slots = 0;
  int bool_slots = 0;
};

/// A reverse loop's stored carry elements (`carry_store`), seen likewise.
struct store_view {
  const int* first = nullptr;
  std::size_t carries = 0;  // the loop's carries: the size of `first`
  std::size_t count = 0;
};

/// Which kernel an op that computes its results together has (detail/exec/results_kernel.hpp).
enum class results_kind : unsigned char { loop, loop_vjp, while_loop, while_count, branch };

/// What code generation compiles such an op's kernel from, all constants: its kind, its
/// layout, its programs. Code generation instantiates the kernel of the ops of the program it
/// compiles, for the one value type it runs on; an op's descriptor takes no kernel's address,
/// so a loop or cond that nothing differentiates compiles no derivative code
/// (docs/design.md, "Where eager rules cost").
struct results_kernel_info {
  results_kind kind = results_kind::loop;
  std::size_t n = 0, x = 0, y = 0, l = 0;  // carries, per-step inputs and outputs, steps (loops)
  bool kept = false;     // a loop that keeps its carries; a reverse loop that reads them
  bool lanes = false;    // runs on SIMD groups (a branch op runs its decomposition there)
  int programs = 0;      // loop: its step; reverse loop: step, step's vjp; while, trip count: cond, step; branch: each
  program_view (*program)(int k, bool simd) = nullptr;
  store_view (*store)() = nullptr;  // loops: the carry elements a reverse loop reads
  /// The first refusal met making its programs (null: none; see graph::refuse): the
  /// program that records the op takes it over (`emit_op`), so it is reported once, there.
  void (*(*refusal)())(bool) = nullptr;
};

/// What a node's value is: a real number (float or double, fixed per program), a mask, or
/// a tuple of real values that `get` nodes take apart (an op with several results).
enum class value_kind : unsigned char { real, boolean, tuple };

/// Where a rule of an op comes from.
enum class rule_source : unsigned char {
  own,            ///< the op's traits define it
  decomposition,  ///< the transform of the op's decomposition
  transposed,     ///< reverse mode from the transpose of a linear jvp rule (custom_jvp)
  missing         ///< none: a transform that needs it fails to compile, naming the op
};

/// How the SIMD loop runs an op.
enum class batch_kernel : unsigned char {
  own,            ///< its kernel takes xsimd batches (every built-in op)
  decomposition,  ///< its decomposition runs in the loop
  lanes,          ///< its scalar kernel runs lane by lane (no decomposition to batch)
  missing         ///< neither kernel nor decomposition
};

/// How an op relates to a runtime batch (vmap): most ops are elementwise (one result per
/// sample where an operand is per sample); `sum` adds a per-sample value over the batch;
/// `size` is the number of samples (its operand only names the batch).
enum class batch_role : unsigned char { elementwise, sum, size };

/// `op_info::builtin` of the structural ops, and of broadcast_in_dim, the first tensor op
/// (the elementwise built-ins lie between `get` and it; detail::builtin_ops), and the
/// reductions, tensordot, reshape, slice and pad after it, which fusion reads (detail/ir/ir.hpp,
/// `fusion_inside`).
namespace builtin_code {
inline constexpr int input = 0, constant = 1, get = 2, broadcast_in_dim = 45, reduce_sum = 46, reduce_max = 47,
                     reduce_min = 48, tensordot = 49, reshape = 51, slice = 52, pad = 53;
}

inline constexpr int no_simplification = -2;

/// What only some ops have, one constant per op type that is not built in
/// (`op_info::extras`; `describe` makes it): how codegen runs it apart from a built-in's
/// kernel, the shapes of its results, what `to_string` prints of it, and how device code
/// refuses it. `op_info` keeps what every op has, which the passes read.
struct op_extras {
  /// Scalar kernels of a user op (built-ins: see `op_info::builtin`), on host and CUDA device.
  float (*kernel_f32)(const float*) = nullptr;
  double (*kernel_f64)(const double*) = nullptr;

  /// A user tensor op's kernel on numbers: operand i's elements at `in[i]`, the result's
  /// written to `out`, all row major. Host only, as `kernel_f64`. (A built-in tensor op's
  /// statement is a template its traits give: codegen names it by `builtin`.)
  void (*statement_f32)(const float* const* in, float* out) = nullptr;
  void (*statement_f64)(const double* const* in, double* out) = nullptr;

  /// An op that computes its results together (a loop: one run gives every carry; a
  /// cond): what its kernel is compiled from (see `results_kernel_info`). Host only.
  const results_kernel_info* results = nullptr;

  /// The shapes of a tuple's results (all scalars when null): a loop's per-step outputs are
  /// tensors. Its `get`s have these shapes, and read the tuple's registers from
  /// `op_info::result_offset`.
  shape (*result_dims)(int k) = nullptr;

  /// What `to_string` prints after the op's name (host only): a control-flow op's
  /// sub-programs, in the program's precision (`single`: f32).
  const char* (*parameters)(bool single) = nullptr;

  /// Called in a constant expression where device code meets an op that is not built in
  /// (after decompositions): the compile error names the function, whose template argument
  /// is the op (detail/exec/device_executor.hpp).
  void (*no_device_kernel)() = nullptr;
};
inline constexpr op_extras no_extras{};

/// The static description of an op, made by `detail::describe<Op>` from `op_traits<Op>`. Rule signatures, over node ids of graph `g` (-1 is a
/// symbolic zero; `y` are the op's results, one unless it has several):
/// - `simplify(g, in)`: an existing id equal to the op on operands `in`, or
///   `no_simplification`; may reorder `in` (commutative ops);
/// - `jvp(g, y, x, t, out)`: the output tangents `out` from the operands' tangents `t`;
/// - `vjp(g, ct, y, x, out)`: the operands' cotangents `out` from the results' cotangents;
/// - `decompose(g, x, out)`: the results written with other ops.
struct op_info {
  const char* name = "?";
  int arity = 0;
  int outputs = 1;                      // results; more than one makes a tuple node
  value_kind result = value_kind::real;
  unsigned mask_operands = 0;           // bit i: operand i is a mask (where's predicate)
  std::uint64_t hash = 0;
  int builtin = -1;                     // index in detail::builtin_ops, or -1 (a user op)
  batch_role role = batch_role::elementwise;
  bool zero_preserving = false;         // f(0, ..., 0) == 0: symbolic zeros pass through
  unsigned linear_in = 0;               // bit i: linear in operand i while the others are fixed
  bool jointly_linear = false;          // linear in all of `linear_in` at once (add, not mul)
  /// Whether its SIMD kernel calls a function the compiler keeps out of line (xsimd's
  /// range reduction for sin, cos, tan): straight-line code runs it as soon as its operands
  /// are ready, so that few values live across the call (`straight_line_order`).
  bool calls_out_of_line = false;
  /// Whether the operands broadcast to one shape (NumPy's rule), as an elementwise op's do;
  /// a loop's do not (its per-step inputs are tensors, its carries scalars).
  bool broadcasts = true;
  /// Whether a node's shape and attributes are set where it is recorded (a tensor op), so
  /// that a pass replays it as it is rather than recording the op afresh.
  bool sets_shape = false;

  int (*simplify)(graph&, int*) = nullptr;
  void (*jvp)(graph&, const int*, const int*, const int*, int*) = nullptr;
  void (*vjp)(graph&, const int*, const int*, const int*, int*) = nullptr;
  void (*decompose)(graph&, const int*, int*) = nullptr;
  rule_source jvp_from = rule_source::missing;
  rule_source vjp_from = rule_source::missing;
  batch_kernel batch_from = batch_kernel::missing;

  /// What only some ops have (`op_extras`); null for a built-in op, which has none of it.
  const op_extras* extras = nullptr;

  constexpr bool is_mask_operand(int i) const { return ((mask_operands >> i) & 1u) != 0; }
  constexpr bool is_builtin() const { return builtin >= 0; }
  /// `*extras`, or none.
  constexpr const op_extras& extra() const { return extras != nullptr ? *extras : no_extras; }
  constexpr bool has_scalar_kernel() const {
    return builtin >= 0 || extra().kernel_f64 != nullptr || extra().statement_f64 != nullptr ||
           extra().results != nullptr;
  }
  constexpr bool has_results_kernel() const { return extra().results != nullptr; }
  constexpr shape result_shape(int k) const {
    return extra().result_dims != nullptr ? extra().result_dims(k) : shape{};
  }
  /// Where result k starts among the tuple's values (one register each).
  constexpr int result_offset(int k) const {
    int offset = 0;
    for (int j = 0; j < k; ++j) offset += result_shape(j).size();
    return offset;
  }
};

/// FNV-1a of an op's name: the part of a node's hash that comes from its op.
constexpr std::uint64_t name_hash(const char* s) {
  std::uint64_t h = 1469598103934665603ull;
  for (; *s != '\0'; ++s) h = (h ^ static_cast<unsigned char>(*s)) * 1099511628211ull;
  return h;
}

/// An op as an IR node holds it: the function that describes it. The function, not a pointer
/// to a constant description, is what makes the op set open without ordering trouble:
/// clang instantiates constexpr functions as soon as they are named, and a constant would be
/// evaluated while the op's own rules (which record the op again) are still being
/// instantiated. The function is called only when a pass or a backend runs, long after.
using op_ref = op_info (*)();

/// What a pass needs an op decomposed for (detail/passes/expand.hpp):
/// - `jvp` / `vjp`: the op has no rule of its own for that mode;
/// - `scalar`: straight-line code on float or double runs every op with a scalar kernel;
/// - `simd`: SIMD loops run built-in kernels only.
enum class expand_for { jvp, vjp, scalar, simd };

constexpr bool needs_expansion(const op_info& op, expand_for why) {
  if (op.decompose == nullptr) return false;
  switch (why) {
    case expand_for::jvp: return op.jvp_from == rule_source::decomposition;
    case expand_for::vjp: return op.vjp_from == rule_source::decomposition;
    case expand_for::scalar: return !op.has_scalar_kernel();
    case expand_for::simd: return !op.is_builtin();
  }
  return false;
}

/// Bit `why` set where an op of `nodes[0 .. n)` needs decomposing for `why`.
template <class Nodes>
constexpr unsigned expansions_needed(const Nodes& nodes, std::size_t n) {
  unsigned bits = 0;
  for (std::size_t j = 0; j < n; ++j) {
    const op_info op = nodes[j].op();
    for (unsigned why = 0; why < 4; ++why)
      if (needs_expansion(op, static_cast<expand_for>(why))) bits |= 1u << why;
  }
  return bits;
}

/// Whether `bits` (of `expansions_needed`) asks for decomposing for `why`.
constexpr bool expansion_bit(unsigned bits, expand_for why) { return ((bits >> static_cast<unsigned>(why)) & 1u) != 0; }

// The three structural ops every graph uses; their traits live in calx/ops/arithmetic.hpp.
constexpr op_info input_info() { return {.name = "input", .hash = name_hash("input"), .builtin = builtin_code::input}; }
constexpr op_info constant_info() {
  return {.name = "constant", .hash = name_hash("constant"), .builtin = builtin_code::constant};
}
/// `get(t)`: result `attr[0]` of the tuple node t.
constexpr op_info get_info() {
  return {.name = "get", .arity = 1, .hash = name_hash("get"), .builtin = builtin_code::get, .zero_preserving = true,
          .linear_in = 1, .jointly_linear = true};
}

// `broadcast_in_dim`'s description (its traits are in detail/tensor/ir_ops.hpp), declared
// here because recording any elementwise op may insert one.
constexpr op_info broadcast_info();

}  // namespace detail
CALX_END_NAMESPACE

#endif // CALX_DETAIL_IR_OP_INFO_HPP
