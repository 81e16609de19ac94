/// @file detail/ir/ir.hpp
/// @brief The finished IR: fixed-size constexpr arrays of nodes and operands, produced from a
/// graph by `finalize` (dead-node elimination, compaction), with registers from one
/// allocator that every backend shares.
#ifndef CALX_DETAIL_IR_IR_HPP
#define CALX_DETAIL_IR_IR_HPP

#include <calx/detail/internal_header_check.hpp>

#include <calx/detail/ir/graph.hpp>

#include <array>
#include <cstddef>
#include <type_traits>
#include <utility>
#include <vector>

CALX_BEGIN_NAMESPACE
namespace detail {

/// The id of an operand, as a type: what codegen's readers are indexed by (`get(operand_c<Id>{},
/// e)`), so that they can pick a register file at compile time.
template <int Id>
using operand_c = std::integral_constant<int, Id>;

/// A program's IR. Nodes are in topological order; `inputs[k]` is the node of input k and
/// `outputs[k]` that of output k (a scalar or a whole tensor each); node j reads
/// `operands[first .. first+arity)`. `slot` is each node's register in straight-line codegen
/// (`materialized::slotted`; -1 elsewhere).
///
/// The call layer moves flat arrays of numbers, one per element: input k fills the flat
/// positions `input_offset[k] .. input_offset[k + 1]`, output k those from `output_offset[k]`;
/// `input_count` and `output_count` are the flat lengths. The lists themselves have one entry
/// per value, so they grow with the program's signature, not with its shapes.
template <std::size_t N, std::size_t NA, std::size_t NI, std::size_t NO, std::size_t FI, std::size_t FO>
struct ir {
  std::array<node, N> nodes{};
  std::array<int, NA == 0 ? 1 : NA> operands{};
  std::array<int, NI> inputs{};
  std::array<int, NO> outputs{};
  std::array<std::size_t, NI + 1> input_offset{};
  std::array<std::size_t, NO + 1> output_offset{};
  int real_slots = 0;
  int bool_slots = 0;
  static constexpr std::size_t size = N;
  static constexpr std::size_t operand_count = NA;
  static constexpr std::size_t input_leaves = NI;
  static constexpr std::size_t output_leaves = NO;
  static constexpr std::size_t input_count = FI;
  static constexpr std::size_t output_count = FO;

  /// Operand `i` of node `j`.
  constexpr int operand(std::size_t j, int i) const { return operands[static_cast<std::size_t>(nodes[j].first + i)]; }
};

/// A run of `count` flat positions from `first`.
struct flat_range {
  std::size_t first = 0;
  std::size_t count = 0;
};

/// The flat offsets of the nodes `list` of graph or IR `r` (one position per element):
/// entry k is where node k starts, the last the total.
template <class R, class List>
constexpr std::vector<std::size_t> flat_offsets(const R& r, const List& list) {
  std::vector<std::size_t> off(list.size() + 1, 0);
  for (std::size_t k = 0; k < list.size(); ++k)
    off[k + 1] = off[k] + static_cast<std::size_t>(list[k] < 0 ? 1 : r.nodes[list[k]].size());
  return off;
}

/// Symbolic-zero outputs become constant 0; nodes no output reaches are dropped (inputs
/// stay: they are the signature); ids are renumbered in order.
constexpr void finalize(graph& g) {
  for (int& o : g.outputs)
    if (o < 0) o = g.constant(0.0);
  const int n = static_cast<int>(g.nodes.size());
  std::vector<char> live(n, 0);
  for (int o : g.outputs) live[o] = 1;
  for (int i : g.inputs) live[i] = 1;
  for (int j = n - 1; j >= 0; --j)
    if (live[j])
      for (int i = 0; i < g.nodes[j].arity; ++i) live[g.operand(j, i)] = 1;
  std::vector<int> remap(n, -1);
  std::vector<node> kept;
  std::vector<int> operands;
  kept.reserve(static_cast<std::size_t>(n));
  operands.reserve(g.operands.size());
  for (int j = 0; j < n; ++j)
    if (live[j]) {
      node m = g.nodes[j];
      const int first = static_cast<int>(operands.size());
      for (int i = 0; i < m.arity; ++i) operands.push_back(remap[g.operand(j, i)]);
      m.first = first;
      remap[j] = static_cast<int>(kept.size());
      kept.push_back(m);
    }
  g.nodes = std::move(kept);
  g.operands = std::move(operands);
  for (int& i : g.inputs) i = remap[i];
  for (int& o : g.outputs) o = remap[o];
  g.table.clear();
}

/// How long a node's value needs its register (`allocate_registers`).
enum class register_need : unsigned char {
  until_read,  // until its last reader in the same stage has run
  until_end,   // to the end of the program (an output the backend stores last)
  if_read,     // only if something reads it (an output stored where it is computed)
};

/// Fused elementwise chains in straight-line code start at this many elements: smaller
/// tensors keep their unrolled statements, which the compiler already keeps in registers.
/// (From 8 elements, fusion raised the compiler's peak memory by 7% on tests/tensor.7.cpp,
/// whose tensors are small: 1010 -> 1088 MB; from 32, by 3%.)
inline constexpr int fusion_min_elements = 32;

/// Register slots for the nodes of `r`, run in the order `order(p)` (the node at position
/// p), one file per (stage, kind), reusing a slot once its last reader in the same stage has
/// run. A node of n elements takes n consecutive slots (its slot is the first), reused only
/// by a node of the same size. `stage_of(j)` is node j's stage; a value read by another
/// stage keeps its slot; `need(j)` says how long node j needs one (a node that needs one
/// only if read and is never read gets slot -1). Writes `slot(j, s)`; returns the slot
/// counts through `count(stage, kind_index)`. Straight-line code has one stage; the batched
/// executor has three (detail/exec/plan.hpp).
/// A node that `inside(j)` says needs no register gets none: a fused node
/// (`fusion_inside`), which the nodes that read it compute, reading its operands where they
/// run; or an input that straight-line code reads where the caller keeps it.
template <class IR, class Order, class StageOf, class Reads, class Need, class SetSlot, class Count,
          class Inside>
constexpr void allocate_registers(const IR& r, Order order, StageOf stage_of, Reads reads, Need need,
                                  SetSlot set_slot, Count count, Inside inside) {
  constexpr std::size_t N = IR::size;
  std::vector<int> last_use(N, 0), slot(N, -1);  // last_use: a position
  std::vector<char> keep(N, 0), freed(N, 0);
  // The values node j reads where it runs: its operands, through fused ones to theirs.
  auto for_each_read = [&](std::size_t j, auto f) {
    auto visit = [&](auto& self, std::size_t k) -> void {
      for (int i = 0; i < r.nodes[k].arity; ++i) {
        const std::size_t a = static_cast<std::size_t>(r.operand(k, i));
        if (inside(a))
          self(self, a);
        else
          f(a);
      }
    };
    visit(visit, j);
  };
  for (std::size_t p = 0; p < N; ++p) last_use[order(p)] = static_cast<int>(p);
  for (std::size_t p = 0; p < N; ++p) {
    const std::size_t j = order(p);
    if (reads(j) && !inside(j))
      for_each_read(j, [&](std::size_t a) {
        last_use[a] = static_cast<int>(p);
        if (stage_of(a) != stage_of(j)) keep[a] = 1;
      });
  }
  for (std::size_t j = 0; j < N; ++j)
    if (need(j) == register_need::until_end) keep[j] = 1;
  // Pools per (stage, kind): stages are small integers, kinds real (0) and mask (1); each
  // free range is (first slot, size).
  std::vector<std::pair<int, int>> pool[4][2];
  int next[4][2] = {};
  auto release = [&](int st, int k, int s, int size) { pool[st][k].push_back({s, size}); };
  for (std::size_t p = 0; p < N; ++p) {
    const std::size_t j = order(p);
    const int here = static_cast<int>(p);
    const node& n = r.nodes[j];
    const int st = stage_of(j), k = n.kind == value_kind::boolean ? 1 : 0, size = n.size();
    if (inside(j) || (need(j) == register_need::if_read && last_use[j] == here && !keep[j])) {
      set_slot(j, -1);
      continue;
    }
    std::size_t found = pool[st][k].size();
    for (std::size_t q = pool[st][k].size(); q-- > 0;)
      if (pool[st][k][q].second == size) {
        found = q;
        break;
      }
    if (found == pool[st][k].size()) {
      // A tensor that loops read in SIMD batches starts on a cache line (64 bytes of f32):
      // batches that straddle lines cost every second load and store twice.
      if (size >= fusion_min_elements) next[st][k] = (next[st][k] + 15) / 16 * 16;
      slot[j] = next[st][k];
      next[st][k] += size;
    } else {
      slot[j] = pool[st][k][found].first;
      pool[st][k].erase(pool[st][k].begin() + static_cast<std::ptrdiff_t>(found));
    }
    set_slot(j, slot[j]);
    if (!reads(j)) continue;
    for_each_read(j, [&](std::size_t a) {  // free what it reads last (once each)
      if (keep[a] || freed[a] || last_use[a] != here || stage_of(a) != st || slot[a] < 0) return;
      freed[a] = 1;
      release(st, r.nodes[a].kind == value_kind::boolean ? 1 : 0, slot[a], r.nodes[a].size());
    });
    if (last_use[j] == here && !keep[j]) release(st, k, slot[j], size);  // never read
  }
  for (int st = 0; st < 4; ++st)
    for (int k = 0; k < 2; ++k) count(st, k, next[st][k]);
}

/// The order straight-line code runs the nodes of `r` in: the IR's own (topological)
/// order, but an op that calls out of line (`op_info::calls_out_of_line`) runs right after
/// the call before it, as soon as its operands are ready. Every vector register is
/// caller-saved: a value computed between two calls and read after the second is spilled
/// and reloaded around it, so calls run back to back where they can (sin and cos of one
/// angle). The first call keeps its place: moving it up would only trade the values live
/// across it for others. `order[p]` is the node at position p.
template <class IR>
constexpr std::array<int, IR::size> straight_line_order(const IR& r) {
  constexpr std::size_t N = IR::size;
  std::array<int, N> order{};
  std::vector<int> calls;  // in the IR's order
  for (std::size_t j = 0; j < N; ++j) {
    order[j] = static_cast<int>(j);
    if (r.nodes[j].op().calls_out_of_line) calls.push_back(static_cast<int>(j));
  }
  if (calls.size() < 2) return order;
  std::vector<char> done(N, 0);
  std::size_t p = 0, next_call = 0;  // calls[next_call] is the first not yet run
  auto run = [&](std::size_t j) {
    order[p++] = static_cast<int>(j);
    done[j] = 1;
  };
  auto ready = [&](std::size_t j) {
    for (int i = 0; i < r.nodes[j].arity; ++i)
      if (!done[static_cast<std::size_t>(r.operand(j, i))]) return false;
    return true;
  };
  // After a call, the calls after it whose operands are ready.
  auto run_following_calls = [&] {
    while (next_call < calls.size() && ready(static_cast<std::size_t>(calls[next_call])))
      run(static_cast<std::size_t>(calls[next_call++]));
  };
  for (std::size_t j = 0; j < N; ++j) {
    if (done[j]) continue;
    const bool call = next_call < calls.size() && calls[next_call] == static_cast<int>(j);
    run(j);
    if (call) ++next_call;
    // A node that completes a waiting call's operands releases it (once a call has run).
    if (next_call > 0) run_following_calls();
  }
  return order;
}

/// Whether node j is a built-in elementwise op that fusion takes: operands and result of
/// one size (at least `fusion_min_elements`), real or masks (comparisons, `and`, `or`,
/// `not`, `where`), one to three operands, a kernel of its own (not a batch's sum or size).
template <class IR>
constexpr bool fusable_elementwise(const IR& r, std::size_t j) {
  const node& n = r.nodes[j];
  const op_info& op = n.op();
  if (op.builtin <= builtin_code::get || op.builtin >= builtin_code::broadcast_in_dim) return false;
  if (op.role != batch_role::elementwise || op.outputs != 1) return false;
  if (n.kind == value_kind::tuple || n.arity < 1 || n.arity > 3 || n.size() < fusion_min_elements) return false;
  for (int i = 0; i < n.arity; ++i) {
    const node& o = r.nodes[static_cast<std::size_t>(r.operand(j, i))];
    if (o.kind == value_kind::tuple || o.size() != n.size()) return false;
  }
  return true;
}

/// Whether node j is a sum, max or min of real numbers, of every element (axis -1) or
/// over one axis, of an operand of at least `fusion_min_elements`: a loop over the
/// operand's elements can fold them as it computes them.
template <class IR>
constexpr bool fusable_reduction(const IR& r, std::size_t j) {
  const int code = r.nodes[j].op().builtin;
  return (code == builtin_code::reduce_sum || code == builtin_code::reduce_max || code == builtin_code::reduce_min) &&
         r.nodes[j].kind == value_kind::real &&
         r.nodes[static_cast<std::size_t>(r.operand(j, 0))].size() >= fusion_min_elements;
}

/// Whether node j reduces every element of its operand to one (`fusable_reduction`).
template <class IR>
constexpr bool full_reduction(const IR& r, std::size_t j) {
  return fusable_reduction(r, j) && r.nodes[j].attr[0] < 0;
}

/// Whether node j reduces its operand over one axis (`fusable_reduction`, attr[0] the axis).
template <class IR>
constexpr bool axis_reduction(const IR& r, std::size_t j) {
  return fusable_reduction(r, j) && r.nodes[j].attr[0] >= 0;
}

/// Where a slice or pad (attributes axis, begin, end) whose axes before `axis` all have
/// extent 1 puts its run: flat elements [lo, hi) of the pad, or of the slice's operand. Such
/// an op is a shift of the flat index: element e of the slice is element e + lo of its
/// operand; element e of the pad is element e - lo of its operand inside the run, zero
/// outside. A reshape is a shift by 0: (0, its size). (-1, -1) for any other node: its
/// elements are not one run.
template <class IR>
constexpr std::pair<int, int> shifted_run(const IR& r, std::size_t j) {
  const node& n = r.nodes[j];
  const int code = n.op().builtin;
  if ((code != builtin_code::slice && code != builtin_code::pad && code != builtin_code::reshape) ||
      n.kind != value_kind::real || r.nodes[static_cast<std::size_t>(r.operand(j, 0))].kind != value_kind::real)
    return {-1, -1};
  if (code == builtin_code::reshape) return {0, n.size()};
  // attr: axis, begin, end (`slice_attr`); `inner` is the operand's too (only `axis` differs).
  const axis_geometry g = axis_geometry::of(n.dims, n.attr[0]);
  if (g.outer != 1) return {-1, -1};
  return {n.attr[1] * g.inner, n.attr[2] * g.inner};
}

/// Whether node j is a slice or pad of real numbers along an axis after one of extent more
/// than 1 (columns of a matrix): `outer` blocks of the axis's elements, each block a run of
/// the flat index (`shifted_run` is one block).
template <class IR>
constexpr bool blocked_shift(const IR& r, std::size_t j) {
  const node& n = r.nodes[j];
  const int code = n.op().builtin;
  return (code == builtin_code::slice || code == builtin_code::pad) && n.kind == value_kind::real &&
         r.nodes[static_cast<std::size_t>(r.operand(j, 0))].kind == value_kind::real &&
         axis_geometry::of(n.dims, n.attr[0]).outer > 1;
}

/// Whether node j broadcasts a tensor of real numbers (more than one element) to its shape:
/// a map of indices, which the loops that read it apply to its operand's elements.
template <class IR>
constexpr bool tensor_broadcast(const IR& r, std::size_t j) {
  return r.nodes[j].op().builtin == builtin_code::broadcast_in_dim && r.nodes[j].kind == value_kind::real &&
         r.nodes[static_cast<std::size_t>(r.operand(j, 0))].size() > 1;
}

/// Whether node j is a `tensordot` of real numbers in layout `k` (`contraction`) of a
/// matrix (operand 0) and a vector (operand 1).
template <class IR>
constexpr bool matrix_vector_contraction(const IR& r, std::size_t j, int k) {
  const node& n = r.nodes[j];
  if (n.op().builtin != builtin_code::tensordot || n.attr[0] != k || n.kind != value_kind::real) return false;
  const node& a = r.nodes[static_cast<std::size_t>(r.operand(j, 0))];
  const node& x = r.nodes[static_cast<std::size_t>(r.operand(j, 1))];
  return a.dims.rank == 2 && x.dims.rank == 1 && a.kind == value_kind::real && x.kind == value_kind::real;
}

/// Whether node j is an outer product of two real tensors (`contraction::outer`: element
/// p * size(b) + q is a[p] * b[q]); vmap writes one that is an output row by row
/// (detail/exec/staged_outputs.hpp).
template <class IR>
constexpr bool outer_product(const IR& r, std::size_t j) {
  const node& n = r.nodes[j];
  return n.op().builtin == builtin_code::tensordot && n.attr[0] == contraction::outer && n.kind == value_kind::real;
}

/// Whether node j is A x (`contraction::ab`, A a matrix, x a vector): element e is the dot
/// product of A's row e with x, which a streamed contraction over A computes as the row
/// goes by (`streamed_contraction`).
template <class IR>
constexpr bool row_dots(const IR& r, std::size_t j) {
  return matrix_vector_contraction(r, j, contraction::ab);
}

/// Whether node j is A^T v (`contraction::atb`, A a matrix, v a vector: the vjp of A x in
/// x) that straight-line code streams: v is fused into it (`fusion_inside`), so one pass
/// over A's rows computes v's element r (the dot product of row r with x, where v is an
/// elementwise function of A x) and adds v[r] times row r to the result while the row is in
/// L1. The gradient of |A x - b|^2 reads A once, not twice (at 1024 x 1024, 1.8-1.9x ->
/// 0.8-1.1x the best hand code: docs/performance.md §6).
template <class IR>
constexpr bool streamed_contraction(const IR& r, std::size_t j) {
  return matrix_vector_contraction(r, j, contraction::atb);
}

/// Which nodes of `r` straight-line code computes inside the loops of the nodes that read
/// them (detail/exec/fusion.hpp) instead of writing them out. A node fuses when every node
/// that reads it can compute it in its loop: an elementwise op of its size, a shift
/// (`shifted_run`, `blocked_shift`) of at least `fusion_min_elements`, a reduction
/// (`fusable_reduction`), or a broadcast of a tensor, which takes only maps of indices over
/// values in memory. Then
/// - an elementwise op or a reduction fuses if one node reads it (once or more), and no
///   broadcast above it would compute it once per copy;
/// - so does an elementwise op of values in memory whatever reads it (a subtraction of two
///   broadcasts: recomputing it costs less than storing and loading it);
/// - a shift fuses if one node reads it, or if it reads a value in memory; a broadcast
///   (a map of indices over a value in memory, or one number) always;
/// - A^T v (`streamed_contraction`) takes v where v is an elementwise function of A x
///   (`row_dots`, the same A) read by it alone; then so does A x, where every node between
///   it and v is fused and reads it alone.
/// Never an output.
template <class IR>
constexpr std::array<bool, IR::size> fusion_inside(const IR& r) {
  constexpr std::size_t N = IR::size;
  std::array<bool, N> inside{};
  std::vector<char> loop_op(N, 0), shift(N, 0), reduces(N, 0), bcast(N, 0), tensor_bcast(N, 0);
  // The matrix A whose A x node j is an elementwise function of (`row_dots`), or -1.
  std::vector<int> rows_of(N, -1);
  bool any = false;
  for (std::size_t j = 0; j < N; ++j) {
    shift[j] = shifted_run(r, j).first >= 0 || blocked_shift(r, j);
    reduces[j] = fusable_reduction(r, j);
    bcast[j] = r.nodes[j].op().builtin == builtin_code::broadcast_in_dim && r.nodes[j].kind == value_kind::real;
    tensor_bcast[j] = tensor_broadcast(r, j);
    any = (loop_op[j] = fusable_elementwise(r, j)) || reduces[j] || streamed_contraction(r, j) || any;
    if (row_dots(r, j)) {
      rows_of[j] = r.operand(j, 0);
    } else if (loop_op[j]) {
      for (int i = 0; i < r.nodes[j].arity; ++i) {
        const int m = rows_of[static_cast<std::size_t>(r.operand(j, i))];
        if (m >= 0) rows_of[j] = rows_of[j] == -1 || rows_of[j] == m ? m : -2;  // -2: two matrices
      }
      if (rows_of[j] < 0) rows_of[j] = -1;
    }
  }
  if (!any) return inside;
  // A node read only by maps of indices that end in a broadcast of a tensor: fused, it would
  // be computed once per copy.
  std::vector<char> under_broadcast(N, 0);
  for (std::size_t j = N; j-- > 0;)
    for (int i = 0; i < r.nodes[j].arity; ++i) {
      const std::size_t a = static_cast<std::size_t>(r.operand(j, i));
      if (tensor_bcast[j] || (shift[j] && under_broadcast[j])) under_broadcast[a] = 1;
    }
  std::vector<int> reader(N, -1);  // the one node that reads each node, -2 if several
  std::vector<char> other(N, 0);   // read by a node whose loop cannot compute it
  for (std::size_t j = 0; j < N; ++j)
    for (int i = 0; i < r.nodes[j].arity; ++i) {
      const std::size_t a = static_cast<std::size_t>(r.operand(j, i));
      reader[a] = reader[a] == -1 || reader[a] == static_cast<int>(j) ? static_cast<int>(j) : -2;
      const bool streams = i == 1 && streamed_contraction(r, j) && rows_of[a] == r.operand(j, 0);
      const bool takes = (loop_op[j] && r.nodes[j].size() == r.nodes[a].size()) ||
                         (shift[j] && r.nodes[j].size() >= fusion_min_elements) || reduces[j] || tensor_bcast[j] ||
                         streams;
      if (!takes) other[a] = 1;
    }
  for (int o : r.outputs)
    if (o >= 0) other[static_cast<std::size_t>(o)] = 1;
  // Nodes (in order) whose elements fused code reads from memory: not fused, or maps of
  // indices over such.
  std::vector<char> in_memory(N, 0);
  for (std::size_t j = 0; j < N; ++j) {
    const node& n = r.nodes[j];
    const bool index_map = shift[j] || bcast[j];
    bool reads_memory = true;
    for (int i = 0; i < n.arity; ++i) reads_memory = reads_memory && in_memory[static_cast<std::size_t>(r.operand(j, i))];
    if (!other[j] && reader[j] != -1) {
      if (loop_op[j])
        inside[j] = !under_broadcast[j] && (reader[j] >= 0 || (reads_memory && n.arity <= 2));
      else if (reduces[j])
        inside[j] = !under_broadcast[j] && reader[j] >= 0;
      else if (shift[j])
        inside[j] = reader[j] >= 0 || reads_memory;
      else if (bcast[j])
        inside[j] = reads_memory;
    }
    in_memory[j] = !inside[j] || (index_map && reads_memory);
  }
  // A x inside the fused chain of a streamed A^T v: found from v back to A x through fused
  // elementwise nodes that one node reads (`into[k]`: the streamed contraction k's chain
  // leads to), so that element r of v reads element r of A x, the row the stream is at (a
  // shift would read another row).
  std::vector<int> into(N, -1);
  for (std::size_t j = N; j-- > 0;) {
    if (streamed_contraction(r, j)) {
      const std::size_t v = static_cast<std::size_t>(r.operand(j, 1));
      // v = A x itself (A^T A x): fused as the end of a chain is.
      if (row_dots(r, v) && r.operand(v, 0) == r.operand(j, 0) && reader[v] == static_cast<int>(j) && !other[v] &&
          r.nodes[v].size() >= fusion_min_elements)
        inside[v] = true;
      if (inside[v] && (loop_op[v] || row_dots(r, v))) into[v] = static_cast<int>(j);
    }
    if (into[j] < 0 || !loop_op[j]) continue;
    const int m = r.operand(static_cast<std::size_t>(into[j]), 0);
    for (int i = 0; i < r.nodes[j].arity; ++i) {
      const std::size_t a = static_cast<std::size_t>(r.operand(j, i));
      if (reader[a] != static_cast<int>(j) || other[a]) continue;
      if (row_dots(r, a) && r.operand(a, 0) == m) inside[a] = true;
      if (inside[a] && loop_op[a]) into[a] = into[j];
    }
  }
  return inside;
}

/// For each node j, the reduction of every element (`full_reduction`) that j's own loop folds
/// as it writes j, or -1: j is a loop of fused code (a real node in memory that reads a fused
/// node, or a reduction over one axis), not an input, and the reduction is its first such
/// reader. logsumexp's gradient writes `exp(x - max)` and sums it: one pass, not two.
/// `inside`: which nodes are fused (`fusion_inside`, or `fused_inside` once allocated).
template <class IR, class Inside>
constexpr std::array<int, IR::size> loop_folds(const IR& r, const Inside& inside) {
  std::array<int, IR::size> by{};
  for (int& b : by) b = -1;
  for (std::size_t j = 0; j < IR::size; ++j) {
    if (!full_reduction(r, j) || inside[j]) continue;
    const std::size_t a = static_cast<std::size_t>(r.operand(j, 0));
    const node& n = r.nodes[a];
    if (inside[a] || n.is_input() || n.kind != value_kind::real || by[a] >= 0 || streamed_contraction(r, a)) continue;
    bool loop = axis_reduction(r, a);
    for (int i = 0; i < n.arity; ++i) loop = loop || inside[static_cast<std::size_t>(r.operand(a, i))];
    if (loop) by[a] = static_cast<int>(j);
  }
  return by;
}

/// `straight_line_order` with each reduction that a loop folds (`folds`, from `loop_folds`)
/// right after that loop's node (it reads nothing else): the loop writes the reduction's
/// register when it ends, and no value that lives between the two can hold that register.
template <class IR>
constexpr std::array<int, IR::size> straight_line_statements(const IR& r, const std::array<int, IR::size>& folds) {
  const std::array<int, IR::size> order = straight_line_order(r);
  std::vector<char> folded(IR::size, 0);
  for (int f : folds)
    if (f >= 0) folded[static_cast<std::size_t>(f)] = 1;
  std::array<int, IR::size> out{};
  std::size_t p = 0;
  for (int j : order) {
    if (folded[static_cast<std::size_t>(j)]) continue;
    out[p++] = j;
    if (folds[static_cast<std::size_t>(j)] >= 0) out[p++] = folds[static_cast<std::size_t>(j)];
  }
  return out;
}

/// Which nodes straight-line code computes inside other nodes' loops, read back from the
/// registers `allocate_slots` gave (`fusion_inside`): none without real registers.
template <class IR>
constexpr std::array<bool, IR::size> fused_inside(const IR& r) {
  std::array<bool, IR::size> inside{};
  if (r.real_slots == 0) return inside;
  for (std::size_t j = 0; j < IR::size; ++j) inside[j] = r.nodes[j].slot < 0 && !r.nodes[j].is_input();
  return inside;
}

/// Straight-line codegen's registers: one stage, in `straight_line_statements`; fused nodes
/// (`fusion_inside`) none, nor real inputs, which straight-line code reads where the caller
/// keeps them (`register_reader`): their registers were stack nothing used (RK4 on
/// 1000-vectors: 2000 of 7000 floats).
template <class IR>
constexpr void allocate_slots(IR& r) {
  std::vector<char> output(IR::size, 0);
  for (int o : r.outputs) output[static_cast<std::size_t>(o)] = 1;
  const std::array<bool, IR::size> inside = fusion_inside(r);
  const std::array<int, IR::size> order = straight_line_statements(r, loop_folds(r, inside));
  allocate_registers(
      r, [&](std::size_t p) { return static_cast<std::size_t>(order[p]); }, [](std::size_t) { return 0; },
      [](std::size_t) { return true; },
      [&](std::size_t j) { return output[j] ? register_need::until_end : register_need::until_read; },
      [&](std::size_t j, int s) { r.nodes[j].slot = s; },
      [&](int st, int k, int c) {
        if (st == 0) (k == 0 ? r.real_slots : r.bool_slots) = c;
      },
      [&](std::size_t j) { return inside[j] || (r.nodes[j].is_input() && r.nodes[j].kind == value_kind::real); });
}

/// What the first build of a program tells: its sizes and what the passes met.
struct first_build_facts {
  std::array<std::size_t, 6> sizes;
  op_ref missing_rule;
  bool missing_in_reverse;
  void (*refusal)(bool);
  unsigned expansions;
};

/// A program's first build: the facts, and the program itself where it fits the arrays here
/// (`kept`), so that `materialized` copies it instead of building it again. Constant
/// evaluation cannot keep the graph's vectors, and the sizes of `ir` are known only after a
/// build; so a program of more than `max_nodes` nodes is built twice, any other once. With
/// g++ 12 the test TUs took 4-10% less CPU time and up to 15% less memory (the rebuilds'
/// garbage): docs/performance.md §5; 512 nodes gained no more. nvcc's front end gains little
/// and keeps the arrays (tests/cuda/vmap_device.cu: 1781 -> 2037 MiB): none kept there.
struct first_build_result {
#if defined(__CUDACC__)
  static constexpr std::size_t max_nodes = 0;
#else
  static constexpr std::size_t max_nodes = 256;
#endif
  static constexpr std::size_t max_operands = 2 * max_nodes, max_io = max_nodes / 2;
  first_build_facts facts{};
  bool kept = false;
  std::array<node, max_nodes> nodes{};
  std::array<int, max_operands> operands{};
  std::array<int, max_io> inputs{}, outputs{};
  std::array<std::size_t, max_io + 1> input_offset{}, output_offset{};
};

/// `Source`'s first build. A function of its own, called alike by `materialized` and by the
/// check that a traced function is constexpr (detail/call/trace_source.hpp): g++ keeps the
/// result of a constexpr call without arguments, so the check's build is this one too.
template <class Source>
constexpr first_build_result first_build() {
  graph g = Source::build();
  finalize(g);
  const std::vector<std::size_t> in_off = flat_offsets(g, g.inputs), out_off = flat_offsets(g, g.outputs);
  first_build_result b;
  b.facts = {{g.nodes.size(), g.operands.size(), g.inputs.size(), g.outputs.size(), in_off.back(), out_off.back()},
             g.missing_rule,
             g.missing_in_reverse,
             g.refusal,
             expansions_needed(g.nodes, g.nodes.size())};
  using B = first_build_result;
  b.kept = g.nodes.size() <= B::max_nodes && g.operands.size() <= B::max_operands && g.inputs.size() <= B::max_io &&
           g.outputs.size() <= B::max_io;
  if (b.kept) {
    for (std::size_t j = 0; j < g.nodes.size(); ++j) b.nodes[j] = g.nodes[j];
    for (std::size_t a = 0; a < g.operands.size(); ++a) b.operands[a] = g.operands[a];
    for (std::size_t i = 0; i < g.inputs.size(); ++i) b.inputs[i] = g.inputs[i];
    for (std::size_t o = 0; o < g.outputs.size(); ++o) b.outputs[o] = g.outputs[o];
    for (std::size_t i = 0; i <= g.inputs.size(); ++i) b.input_offset[i] = in_off[i];
    for (std::size_t o = 0; o <= g.outputs.size(); ++o) b.output_offset[o] = out_off[o];
  }
  return b;
}

/// The IR of `Source::build()` as a constant: one constexpr run, which sizes it and keeps
/// it where it is small enough (`first_build_result`), else one more to fill it.
template <class Source>
struct materialized {
  static constexpr first_build_result built = first_build<Source>();
  static constexpr first_build_facts first_run = built.facts;
  static constexpr bool kept = built.kept;
  static constexpr std::array<std::size_t, 6> sizes = first_run.sizes;
  /// Bit `expand_for` k: some op of the program needs decomposing for pass k.
  static constexpr unsigned expansions = first_run.expansions;
  /// The first op the passes that made this program reached without the rule they needed
  /// (null: none); the transform that made it reports it.
  static constexpr op_ref missing_rule = first_run.missing_rule;
  static constexpr bool missing_in_reverse = first_run.missing_in_reverse;
  /// The report of the first derivative a rule refused (null: none; see graph::refuse).
  static constexpr void (*refusal)(bool) = first_run.refusal;
  using ir_type = ir<sizes[0], sizes[1], sizes[2], sizes[3], sizes[4], sizes[5]>;
  /// The IR from a build's arrays (a graph's, or those `built` kept).
  template <class G>
  static constexpr ir_type copy(const G& g, const std::size_t* in_off, const std::size_t* out_off) {
    ir_type r;
    for (std::size_t j = 0; j < sizes[0]; ++j) r.nodes[j] = g.nodes[j];
    for (std::size_t a = 0; a < sizes[1]; ++a) r.operands[a] = g.operands[a];
    for (std::size_t i = 0; i < sizes[2]; ++i) r.inputs[i] = g.inputs[i];
    for (std::size_t o = 0; o < sizes[3]; ++o) r.outputs[o] = g.outputs[o];
    for (std::size_t i = 0; i <= sizes[2]; ++i) r.input_offset[i] = in_off[i];
    for (std::size_t o = 0; o <= sizes[3]; ++o) r.output_offset[o] = out_off[o];
    return r;
  }
  static constexpr ir_type value = [] {
    // A refused program is made all the same (its refused values are zeros or scratch
    // numbers), so that what is instantiated from it compiles: it is never run. A transform
    // reports the refusal first (rules_found, tracing_failed), a program holding a refused
    // sub-program takes the refusal over (emit_op), and code generation stops at it
    // (`runnable`).
    if constexpr (kept) {
      return copy(built, built.input_offset.data(), built.output_offset.data());
    } else {
      graph g = Source::build();
      finalize(g);
      const std::vector<std::size_t> in_off = flat_offsets(g, g.inputs), out_off = flat_offsets(g, g.outputs);
      return copy(g, in_off.data(), out_off.data());
    }
  }();
  /// `value` with straight-line code's registers (`allocate_slots`), made only where that
  /// code is generated: most programs are only read by passes (a primal a derivative is
  /// made from, an inner program replayed into an outer one) or run by the SIMD executor,
  /// which plans its own registers, and the allocation was a third of some TUs' constant
  /// evaluation with g++.
  static constexpr ir_type slotted = [] {
    ir_type r = value;
    allocate_slots(r);
    return r;
  }();
};

template <class Source>
inline constexpr const auto& ir_v = materialized<Source>::value;

/// The first refusal met making the programs `Sources` (null: none).
template <class... Sources>
constexpr void (*first_refusal())(bool) {
  void (*r)(bool) = nullptr;
  ((r = r != nullptr ? r : materialized<Sources>::refusal), ...);
  return r;
}

/// Whether `Source` may be compiled to code; a refused program's refusal is the error here.
/// A transform reports it before it compiles anything, so this line is a safety net.
template <class Source>
constexpr bool runnable() {
  if constexpr (materialized<Source>::refusal != nullptr) materialized<Source>::refusal(true);
  return true;
}

/// Calls the report of the refusal recorded while `Source` was made (see graph::refuse):
/// its one error, where a constant is initialized with it.
template <class Source>
constexpr int name_the_refusal() {
  materialized<Source>::refusal(true);
  return 0;
}

/// `r` seen through pointers (an op's sub-program, named in its descriptor).
template <class IR>
constexpr program_view view_of(const IR& r) {
  return {r.nodes.data(),
          r.operands.data(),
          r.inputs.data(),
          r.outputs.data(),
          r.input_offset.data(),
          r.output_offset.data(),
          {IR::size, IR::operand_count, IR::input_leaves, IR::output_leaves, IR::input_count, IR::output_count},
          r.real_slots,
          r.bool_slots};
}

/// A typed copy of the program `Program(K, Simd)` views (`Program`: a descriptor's
/// `results_kernel_info::program`), for code generation, which compiles from typed IR: made
/// only where code generation asks, so a program no generated code runs costs no code.
template <auto Program, int K, bool Simd>
struct program_copy {
  static constexpr program_view v = Program(K, Simd);
  using ir_type = ir<v.sizes[0], v.sizes[1], v.sizes[2], v.sizes[3], v.sizes[4], v.sizes[5]>;
  static constexpr ir_type value = [] {
    ir_type r;
    for (std::size_t j = 0; j < v.sizes[0]; ++j) r.nodes[j] = v.nodes[j];
    for (std::size_t a = 0; a < v.sizes[1]; ++a) r.operands[a] = v.operands[a];
    for (std::size_t i = 0; i < v.sizes[2]; ++i) r.inputs[i] = v.inputs[i];
    for (std::size_t o = 0; o < v.sizes[3]; ++o) r.outputs[o] = v.outputs[o];
    for (std::size_t i = 0; i <= v.sizes[2]; ++i) r.input_offset[i] = v.input_offset[i];
    for (std::size_t o = 0; o <= v.sizes[3]; ++o) r.output_offset[o] = v.output_offset[o];
    r.real_slots = v.real_slots;
    r.bool_slots = v.bool_slots;
    return r;
  }();
};

}  // namespace detail
CALX_END_NAMESPACE

#endif // CALX_DETAIL_IR_IR_HPP
