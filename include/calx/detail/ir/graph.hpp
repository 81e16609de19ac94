/// @file detail/ir/graph.hpp
/// @brief The IR while it is being built: a growable, hash-consed DAG of nodes, used only
/// inside constant evaluation (C++20 constexpr std::vector).
#ifndef CALX_DETAIL_IR_GRAPH_HPP
#define CALX_DETAIL_IR_GRAPH_HPP

#include <calx/detail/internal_header_check.hpp>

#include <calx/detail/ir/op_info.hpp>
#include <calx/detail/ir/shape.hpp>

#include <array>
#include <bit>
#include <cstdint>
#include <type_traits>
#include <vector>

CALX_BEGIN_NAMESPACE
namespace detail {

/// One IR node: an op applied to `arity` operands, which are the ids
/// `operands[first .. first + arity)` of the graph or IR holding it.
struct node {
  op_ref op = &constant_info;
  std::int32_t first = 0;
  std::int32_t arity = 0;
  double value = 0;        // a constant's value
  std::int32_t slot = -1;  // register slot chosen by codegen's allocator
  value_kind kind = value_kind::real;
  bool batched = false;    // one value per sample of a runtime batch (see vmap)
  shape dims{};            // per sample: a scalar, or a tensor of `dims.size()` elements
  /// What else identifies the node, all integers: an input's position among the inputs, a
  /// get's result index, a tuple's register count (`attr[0]`); a tensor op's attributes,
  /// set where it is recorded and read by its rules and its statement (an axis, a
  /// contraction, an element; a slice's axis, begin and end).
  std::array<std::int32_t, 3> attr{};

  /// Values the node holds in registers: a tuple node's results' (`attr[0]`), else its
  /// shape's elements.
  constexpr int size() const { return kind == value_kind::tuple ? attr[0] : dims.size(); }

  constexpr bool is_input() const { return op == &input_info; }
  constexpr bool is_constant() const { return op == &constant_info; }
  constexpr bool is_get() const { return op == &get_info; }
  /// An input's position among the inputs, a get's result index.
  constexpr std::size_t index() const { return static_cast<std::size_t>(attr[0]); }
};

/// A DAG under construction. `emit` merges a node with an identical earlier one (common
/// subexpression elimination as the graph grows), so sharing in the user's code and in
/// derivative rules never duplicates work.
struct graph {
  std::vector<node> nodes;
  std::vector<int> operands;
  std::vector<int> inputs;   // one node per input: a scalar or a whole tensor
  std::vector<int> outputs;  // one node per output (-1: a scalar zero, see `output`)
  std::vector<int> table;  // open-addressing hash of node ids; -1 = empty
  /// The first op a pass reached that has no rule for it (and no decomposition): the pass
  /// skips it and the transform reports it (detail/call/transform_support.hpp).
  op_ref missing_rule = nullptr;
  bool missing_in_reverse = false;  // the missing rule is the vjp (else the jvp)
  /// The first derivative a rule refused (reverse mode through a while_loop, say): the rule
  /// records a function that reports it, answers symbolic zeros, and the pass goes on; the
  /// transform calls it with `true` where it would use the program, so the refusal is the
  /// only error (its `trace_error` line quotes the message; with `false` it does nothing,
  /// which keeps it a function the compiler may evaluate).
  void (*refusal)(bool) = nullptr;
  constexpr void refuse(void (*report)(bool)) {
    if (refusal == nullptr) refusal = report;
  }
  /// A number a refused read or write of a traced tensor's element goes to, so that the
  /// trace can go on to be reported.
  double scratch_real = 0;
  float scratch_float = 0;
  bool scratch_bool = false;
  int scratch_int = 0;  // integer tensors (indices)
  long scratch_long = 0;
  long long scratch_long_long = 0;
  unsigned scratch_unsigned = 0;
  unsigned long scratch_unsigned_long = 0;
  unsigned long long scratch_unsigned_long_long = 0;
  template <class T>
  constexpr T& scratch() {
    if constexpr (std::is_same_v<T, float>)
      return scratch_float;
    else if constexpr (std::is_same_v<T, bool>)
      return scratch_bool;
    else if constexpr (std::is_same_v<T, int>)
      return scratch_int;
    else if constexpr (std::is_same_v<T, long>)
      return scratch_long;
    else if constexpr (std::is_same_v<T, long long>)
      return scratch_long_long;
    else if constexpr (std::is_same_v<T, unsigned>)
      return scratch_unsigned;
    else if constexpr (std::is_same_v<T, unsigned long>)
      return scratch_unsigned_long;
    else if constexpr (std::is_same_v<T, unsigned long long>)
      return scratch_unsigned_long_long;
    else
      return scratch_real;
  }

  constexpr int operand(int id, int i) const { return operands[nodes[id].first + i]; }

  /// `op_hash` is the op's (`op_info::hash`), passed in by a caller that has the op's
  /// description at hand: each `op()` call copies the description in constant evaluation.
  constexpr std::uint64_t hash(const node& n, const int* in, std::uint64_t op_hash) const {
    std::uint64_t h = op_hash;
    auto mix = [&](std::uint64_t v) { h = (h ^ v) * 1099511628211ull; };
    mix(static_cast<std::uint64_t>(n.kind) + (n.batched ? 4 : 0));
    for (int i = 0; i < n.arity; ++i) mix(static_cast<std::uint64_t>(static_cast<std::int64_t>(in[i])));
    mix(std::bit_cast<std::uint64_t>(n.value));
    for (std::int32_t a : n.attr) mix(static_cast<std::uint64_t>(static_cast<std::int64_t>(a)));
    for (int a = 0; a < n.dims.rank; ++a) mix(static_cast<std::uint64_t>(n.dims.extent[a]) + 1000003ull * a);
    return h ^ (h >> 29);
  }

  constexpr bool same(int id, const node& n, const int* in) const {
    const node& m = nodes[id];
    if (m.op != n.op || m.kind != n.kind || m.arity != n.arity || m.batched != n.batched ||
        std::bit_cast<std::uint64_t>(m.value) != std::bit_cast<std::uint64_t>(n.value) || !(m.dims == n.dims) ||
        m.attr != n.attr)
      return false;
    for (int i = 0; i < n.arity; ++i)
      if (operands[m.first + i] != in[i]) return false;
    return true;
  }

  constexpr void rehash() {
    table.assign(table.empty() ? 64 : table.size() * 4, -1);
    for (int id = 0; id < static_cast<int>(nodes.size()); ++id)
      if (!nodes[id].is_input()) {
        const std::size_t mask = table.size() - 1;
        std::size_t i = hash(nodes[id], operands.data() + nodes[id].first, nodes[id].op().hash) & mask;
        while (table[i] != -1) i = (i + 1) & mask;
        table[i] = id;
      }
  }

  /// The id of a node equal to `n` on operands `in[0 .. n.arity)`, adding it if there is none.
  constexpr int emit(const node& n, const int* in) { return emit(n, in, n.op().hash); }
  constexpr int emit(node n, const int* in, std::uint64_t op_hash) {
    if (2 * (nodes.size() + 1) > table.size()) rehash();
    const std::size_t mask = table.size() - 1;
    std::size_t i = hash(n, in, op_hash) & mask;
    for (; table[i] != -1; i = (i + 1) & mask)
      if (same(table[i], n, in)) return table[i];
    n.first = static_cast<std::int32_t>(operands.size());
    // Grown four-fold, not two-fold: in constant evaluation each reallocation copies every
    // node element by element, and the copies stay allocated until the evaluation ends.
    if (nodes.size() == nodes.capacity()) nodes.reserve(4 * nodes.size() + 64);
    if (operands.size() + static_cast<std::size_t>(n.arity) > operands.capacity())
      operands.reserve(4 * operands.size() + 128 + static_cast<std::size_t>(n.arity));
    for (int k = 0; k < n.arity; ++k) operands.push_back(in[k]);
    nodes.push_back(n);
    table[i] = static_cast<int>(nodes.size()) - 1;
    return table[i];
  }

  /// A new input node, the next of `inputs`; `batched`: one value per sample of a runtime
  /// batch. A tensor is one input whatever its size: the lists grow with the program's
  /// signature, not with element counts (the call layer's flat arrays of numbers are laid
  /// out by `flat_offsets`).
  constexpr int input(value_kind kind = value_kind::real, bool batched = false, shape dims = {}) {
    node n;
    n.op = &input_info;
    n.kind = kind;
    n.batched = batched;
    n.dims = dims;
    n.attr[0] = static_cast<std::int32_t>(inputs.size());
    n.first = static_cast<std::int32_t>(operands.size());
    nodes.push_back(n);
    inputs.push_back(static_cast<int>(nodes.size()) - 1);
    return inputs.back();
  }
  /// An input like node `like` of IR or graph `r` (kind, batching, shape). A tuple's values
  /// come in as one tensor (a residual: the ops that read a tuple read its values in place).
  constexpr int input_like(const node& like) {
    if (like.kind == value_kind::tuple) {
      shape s{};
      s.rank = 1;
      s.extent[0] = static_cast<std::int32_t>(like.size());
      return input(value_kind::real, like.batched, s);
    }
    return input(like.kind == value_kind::boolean ? value_kind::boolean : value_kind::real, like.batched, like.dims);
  }

  /// Adds node `id` to the outputs; a symbolic zero (-1) becomes zeros of shape `dims`.
  constexpr void output(int id, shape dims = {}) {
    if (id < 0 && dims.rank > 0) {
      node n;
      n.op = &broadcast_info;
      n.arity = 1;
      n.dims = dims;
      const int zero = constant(0.0);
      id = emit(n, &zero);
    }
    outputs.push_back(id);
  }

  /// Adds `map[o]` for each node `o` of `list`, nodes of `r` (an IR or a graph) that give the
  /// shape of a symbolic zero.
  template <class R, class List, class Map>
  constexpr void outputs_from(const R& r, const List& list, const Map& map) {
    for (auto o : list) output(map[o], r.nodes[o].dims);
  }

  constexpr int constant(double v, value_kind kind = value_kind::real) {
    node n;
    n.op = &constant_info;
    n.kind = kind;
    n.value = v;
    return emit(n, nullptr);
  }

  /// Result `k` of tuple node `t`.
  constexpr int get(int t, int k) {
    node n;
    n.op = &get_info;
    n.arity = 1;
    n.attr[0] = k;
    n.batched = nodes[t].batched;
    n.dims = nodes[t].op().result_shape(k);
    return emit(n, &t);
  }

  constexpr bool is_batched(int id) const { return id >= 0 && nodes[id].batched; }
  constexpr bool is_constant(int id) const { return id >= 0 && nodes[id].is_constant(); }
  constexpr bool is_constant(int id, double v) const { return is_constant(id) && nodes[id].value == v; }
  /// Whether `id` is the constant with exactly the bits of `v` (tells -0.0 from +0.0).
  constexpr bool is_constant_bits(int id, double v) const {
    return is_constant(id) && std::bit_cast<std::uint64_t>(nodes[id].value) == std::bit_cast<std::uint64_t>(v);
  }
  constexpr bool is_op(int id, op_ref op) const { return id >= 0 && nodes[id].op == op; }
  /// Whether `id` is a node of the built-in op with this `builtin` code (a rule that asks
  /// about its own op uses this rather than the op's description: see `op_ref`).
  constexpr bool is_builtin(int id, int code) const { return id >= 0 && nodes[id].op().builtin == code; }
};

/// Node ids for one node's operands or results: on the stack for the usual few, on the
/// (constexpr) heap for the many of a custom rule over large structures.
struct id_buffer {
  int small[8] = {};
  std::vector<int> big;
  constexpr explicit id_buffer(int n) {
    if (n > 8) big.assign(static_cast<std::size_t>(n), 0);
  }
  constexpr int* data() { return big.empty() ? small : big.data(); }
  constexpr int& operator[](int i) { return data()[i]; }
};

/// Node `id` broadcast to shape `to` (NumPy's rule; the caller checked it applies): `id`
/// itself when it has that shape already.
constexpr int broadcast_to(graph& g, int id, shape to) {
  if (g.nodes[id].dims == to) return id;
  node n;
  n.op = &broadcast_info;
  n.arity = 1;
  n.dims = to;
  n.batched = g.nodes[id].batched;
  n.kind = g.nodes[id].kind;
  return g.emit(n, &id);
}

/// A node like `proto` (op, attribute, shape) on operands `in`: how tensor ops, whose
/// attributes are not operands, are recorded and replayed.
constexpr int emit_like(graph& g, const node& proto, const int* in, std::uint64_t op_hash) {
  node n = proto;
  n.batched = false;
  for (int i = 0; i < n.arity; ++i) n.batched = n.batched || g.nodes[in[i]].batched;
  return g.emit(n, in, op_hash);
}
constexpr int emit_like(graph& g, const node& proto, const int* in) { return emit_like(g, proto, in, proto.op().hash); }

/// An elementwise op's operands broadcast to one shape (NumPy's rule): an operand of
/// another shape is replaced by a `broadcast` node, so every elementwise node reads operands
/// of its own shape and its rules never see broadcasting (their transpose, a sum, comes
/// from the broadcast node). Symbolic zeros stay; they take any shape.
constexpr shape operands_shape(const graph& g, const op_info& op, const int* in) {
  shape common{};
  for (int i = 0; i < op.arity; ++i) {
    if (in[i] < 0) continue;
    const broadcast_result b = broadcast_shapes(common, g.nodes[in[i]].dims);
    if (!b.ok) trace_shape_error("calx: operands of an elementwise op have shapes that do not broadcast");
    common = b.s;
  }
  return common;
}
constexpr shape broadcast_operands(graph& g, const op_info& op, int* in) {
  const shape common = operands_shape(g, op, in);
  if (common.rank > 0)
    for (int i = 0; i < op.arity; ++i)
      if (in[i] >= 0 && !(g.nodes[in[i]].dims == common)) in[i] = broadcast_to(g, in[i], common);
  return common;
}

/// Records op `op` on operand ids `in` (which it may reorder): its simplification first,
/// then a hash-consed node. A symbolic zero (-1) left in `in` becomes the constant 0. Returns
/// the result's id: a tuple node for an op with several results (take them apart with
/// `graph::get`).
constexpr int emit_op(graph& g, op_ref ref, const op_info& op, int* in);
constexpr int emit_op(graph& g, op_ref ref, int* in) { return emit_op(g, ref, ref(), in); }
/// The same with the op's description `op` (`ref()`) at hand: each `ref()` copies it in
/// constant evaluation, so a pass that has it passes it on.
constexpr int emit_op(graph& g, op_ref ref, const op_info& op, int* in) {
  if (op.simplify != nullptr) {
    // On the operands as given, before they are broadcast: a scalar constant is still seen
    // as one (x * 1 is x for a tensor x too), and so is a constant broadcast already (the
    // seed a reduction's vjp spreads over its operand). A simplification holds elementwise,
    // so its result broadcast to the operands' common shape is the op's.
    const shape common = operands_shape(g, op, in);
    if (op.broadcasts && op.arity <= 4) {
      int scalar[4] = {};
      bool any = false;
      for (int i = 0; i < op.arity; ++i) {
        scalar[i] = in[i];
        if (in[i] >= 0 && g.nodes[in[i]].op == &broadcast_info && g.is_constant(g.operand(in[i], 0))) {
          scalar[i] = g.operand(in[i], 0);
          any = true;
        }
      }
      // Only a simplification is taken from this look: otherwise the node is recorded on its
      // operands as they are (and `in` keeps the order the simplification below gives it).
      if (any) {
        const int s = op.simplify(g, scalar);
        if (s != no_simplification) return s < 0 ? s : broadcast_to(g, s, common);
      }
    }
    const int s = op.simplify(g, in);
    if (s != no_simplification) return s < 0 ? s : broadcast_to(g, s, common);
  }
  const shape common = op.broadcasts ? broadcast_operands(g, op, in) : shape{};
  // An op whose sub-program was refused (a misuse in a loop's body) refuses this program.
  if (op.has_results_kernel() && op.extra().results->refusal != nullptr) g.refuse(op.extra().results->refusal());
  node n;
  n.op = ref;
  n.arity = op.arity;
  n.dims = op.broadcasts ? common : op.result_shape(0);
  // Several results make a tuple node; so does one computed by a results kernel (a loop),
  // whose node a reverse rule may extend with more results (see detail/call/loop_op.hpp).
  const bool tuple = op.outputs > 1 || op.has_results_kernel();
  n.kind = tuple ? value_kind::tuple : op.result;
  if (tuple) {
    n.dims = shape{};
    n.attr[0] = op.result_offset(op.outputs);  // its values, one register each (node::size)
  }
  for (int i = 0; i < op.arity; ++i) {
    if (in[i] < 0) in[i] = broadcast_to(g, g.constant(0.0), common);
    // Elementwise ops are batched when an operand is; reductions over the batch are not.
    n.batched = n.batched || (op.role == batch_role::elementwise && g.nodes[in[i]].batched);
  }
  return g.emit(n, in, op.hash);
}

}  // namespace detail
CALX_END_NAMESPACE

#endif // CALX_DETAIL_IR_GRAPH_HPP
