/// @file detail/tensor/ir_ops.hpp
/// @brief The tensor ops of the IR: broadcast, reduce_sum, tensordot, transpose, reshape,
/// index and pack. Each is one node however many elements it touches (the IR grows with the
/// program, not with shapes); its attribute (an axis, an element, a contraction) is the
/// node's `value` and its shape the node's `dims`, set here where it is recorded. Their rules
/// are written on node ids and read those attributes from the result node `y`. Elementwise
/// ops need no tensor rules: recording one broadcasts its operands to a common shape
/// (`broadcast_operands`), and the transpose of that broadcast is a reduce_sum.
#ifndef CALX_DETAIL_TENSOR_IR_OPS_HPP
#define CALX_DETAIL_TENSOR_IR_OPS_HPP

#include <calx/detail/internal_header_check.hpp>

#include <calx/detail/ir/graph.hpp>
#include <calx/detail/ir/op_info.hpp>
#include <calx/detail/ir/shape.hpp>
#include <calx/detail/ops/describe.hpp>
#include <calx/op_traits.hpp>
#include <calx/ops/arithmetic.hpp>  // the rules record add, mul, div, eq and where
#include <calx/ops/selection.hpp>

#include <vector>

CALX_BEGIN_NAMESPACE
namespace detail {

constexpr op_info reduce_sum_info();
constexpr op_info tensordot_info();
constexpr op_info transpose_info();
constexpr op_info reshape_info();
constexpr op_info index_info();
constexpr op_info pack_info();
constexpr op_info reduce_max_info();
constexpr op_info reduce_min_info();
constexpr op_info slice_info();
constexpr op_info pad_info();

/// A slice's attribute: axis, begin and end packed into the node's value (exact in a
/// double: each below 2^20).
struct slice_attr {
  int axis = 0, begin = 0, end = 0;
  constexpr double encode() const { return (static_cast<double>(axis) * 1048576.0 + begin) * 1048576.0 + end; }
  static constexpr slice_attr decode(double v) {
    const auto u = static_cast<long long>(v);
    return {static_cast<int>(u >> 40), static_cast<int>((u >> 20) & 1048575), static_cast<int>(u & 1048575)};
  }
};

/// The loop of a slice: for every element of the unsliced shape `big`, `f(whole, part,
/// inside)` with its flat index in `big`, its flat index in the slice `a` of axis a.axis
/// (meaningful when `inside`), and whether it lies in the slice. A slice reads `whole` into
/// `part`; its transpose, a pad, the other way. One loop for tensors of numbers and for every
/// backend's code.
template <class F>
CALX_HOST_DEVICE constexpr CALX_INLINE void slice_loop(const shape& big, slice_attr a, const F& f) {
  const int len = big.extent[a.axis], part = a.end - a.begin;
  const int inner = big.stride(a.axis), outer = big.size() / (len * inner);
  for (int o = 0; o < outer; ++o)
    for (int k = 0; k < len; ++k)
      for (int i = 0; i < inner; ++i)
        f((o * len + k) * inner + i, (o * part + k - a.begin) * inner + i, k >= a.begin && k < a.end);
}

constexpr const shape& dims_of(const graph& g, int id) { return g.nodes[id].dims; }

/// A tensor op node on operands `in` with attribute `value` and shape `dims`.
constexpr int emit_tensor(graph& g, op_ref op, const int* in, int arity, double value, shape dims) {
  node n;
  n.op = op;
  n.arity = arity;
  n.value = value;
  n.dims = dims;
  n.kind = value_kind::real;
  return emit_like(g, n, in);
}

constexpr int add_ids(graph& g, int a, int b) {
  if (a < 0) return b;
  if (b < 0) return a;
  int in[2] = {a, b};
  return emit_op(g, ref_of<add_op>(), in);
}

/// Sum over `axis` (-1: all axes, a scalar).
constexpr int reduce_sum(graph& g, int x, int axis) {
  if (x < 0) return -1;
  const shape s = dims_of(g, x);
  if (s.rank == 0) return x;
  shape r{};
  if (axis >= 0) {
    if (axis >= s.rank) trace_shape_error("calx: sum over an axis the tensor does not have");
    for (int a = 0; a < s.rank; ++a)
      if (a != axis) r.extent[r.rank++] = s.extent[a];
  }
  return emit_tensor(g, &reduce_sum_info, &x, 1, axis, r);
}

/// The same elements in shape `to` (row major).
constexpr int reshape(graph& g, int x, shape to) {
  if (x < 0) return -1;
  if (dims_of(g, x) == to) return x;
  if (dims_of(g, x).size() != to.size()) trace_shape_error("calx: reshape to a shape of another size");
  return emit_tensor(g, &reshape_info, &x, 1, 0, to);
}

/// `x` (of a shape that broadcasts to `to`) summed down to shape `to`: the transpose of
/// broadcasting `to` up to x's shape.
constexpr int sum_to(graph& g, int x, shape to) {
  if (x < 0 || dims_of(g, x) == to) return x;
  const shape s = dims_of(g, x);
  for (int a = s.rank - 1; a >= 0; --a) {
    const int k = a - (s.rank - to.rank);  // the axis of `to` axis a lines up with (< 0: none)
    if (k < 0 || (to.extent[k] == 1 && s.extent[a] != 1)) x = reduce_sum(g, x, a);
  }
  return reshape(g, x, to);
}

/// The matrix `x` transposed.
constexpr int transpose(graph& g, int x) {
  if (x < 0) return -1;
  const shape s = dims_of(g, x);
  if (s.rank != 2) trace_shape_error("calx: transpose of a tensor that is not a matrix");
  shape r{};
  r.rank = 2;
  r.extent = {s.extent[1], s.extent[0], 0, 0};
  return emit_tensor(g, &transpose_info, &x, 1, 0, r);
}

/// Which axes a `tensordot` node contracts (its attribute). With a of shape [P.., R] or
/// [R, P..] and b of shape [R, Q..] or [Q.., R] (ranks 1 or 2), the result is [P.., Q..]:
/// `sum_r a(p, r) b(r, q)` read in the layouts below. The transposed forms are what reverse
/// mode needs, so no transpose is materialised.
struct contraction {
  static constexpr int outer = 0;  ///< vectors: a[p] b[q]
  static constexpr int ab = 1;     ///< a[p, r] b[r, q]: dot, matvec, vecmat, matmul
  static constexpr int atb = 2;    ///< a[r, p] b[r, q]: a transposed (a matrix)
  static constexpr int abt = 3;    ///< a[p, r] b[q, r]: b transposed (a matrix)
};

/// The loop bounds of a contraction of shapes `sa` and `sb` of kind `k`: rows (P), cols (Q)
/// and the contracted extent (R).
struct contraction_loops {
  int rows = 1, cols = 1, inner = 1;
};
constexpr contraction_loops loops_of(int k, const shape& sa, const shape& sb) {
  contraction_loops l;
  l.inner = k == contraction::outer ? 1 : k == contraction::atb ? sa.extent[0] : sa.extent[sa.rank - 1];
  l.rows = sa.size() / l.inner;
  l.cols = sb.size() / l.inner;
  return l;
}

/// The loop of contraction `K` with bounds `L` (`loops_of`): `put(p * cols + q, v)` with `v`
/// the sum over r of `get_a(element (p, r) of a) * get_b(element (r, q) of b)`, in their
/// layouts (see `contraction`). The bounds are template arguments so that the generated
/// loops have constant trip counts and strides (as runtime arguments, the least-squares
/// gradient ran 1.8x slower). One loop for tensors of numbers and for every backend's code.
template <int K, contraction_loops L, class GetA, class GetB, class Put>
CALX_HOST_DEVICE constexpr CALX_INLINE void contract_loop(const GetA& get_a, const GetB& get_b, const Put& put) {
  constexpr auto at_a = [](int p, int r) { return K == contraction::atb ? r * L.rows + p : p * L.inner + r; };
  constexpr auto at_b = [](int r, int q) { return K == contraction::abt ? q * L.inner + r : r * L.cols + q; };
  for (int p = 0; p < L.rows; ++p)
    for (int q = 0; q < L.cols; ++q) {
      auto acc = get_a(at_a(p, 0)) * get_b(at_b(0, q));
      for (int r = 1; r < L.inner; ++r) acc += get_a(at_a(p, r)) * get_b(at_b(r, q));
      put(p * L.cols + q, acc);
    }
}

/// The contraction `k` (see `contraction`) of `a` and `b`.
constexpr int tensordot(graph& g, int a, int b, int k) {
  if (a < 0 || b < 0) return -1;
  const shape sa = dims_of(g, a), sb = dims_of(g, b);
  if (k == contraction::outer && (sa.rank > 1 || sb.rank > 1))
    trace_shape_error("calx: outer product of tensors that are not vectors");
  if (k == contraction::outer && (sa.rank == 0 || sb.rank == 0)) {
    int in[2] = {a, b};
    return emit_op(g, ref_of<mul_op>(), in);
  }
  const bool ranks = sa.rank >= 1 && sb.rank >= 1 && sa.rank <= 2 && sb.rank <= 2;
  if ((k == contraction::ab && !(ranks && sa.extent[sa.rank - 1] == sb.extent[0])) ||
      (k == contraction::atb && !(ranks && sa.rank == 2 && sa.extent[0] == sb.extent[0])) ||
      (k == contraction::abt && !(ranks && sb.rank == 2 && sa.extent[sa.rank - 1] == sb.extent[1])))
    trace_shape_error("calx: contraction of tensors whose shapes do not match");
  shape r{};
  const int a_first = k == contraction::atb ? 1 : 0, a_end = k == contraction::ab || k == contraction::abt ? sa.rank - 1 : sa.rank;
  const int b_first = k == contraction::ab || k == contraction::atb ? 1 : 0, b_end = k == contraction::abt ? sb.rank - 1 : sb.rank;
  for (int x = a_first; x < a_end; ++x) r.extent[r.rank++] = sa.extent[x];
  for (int x = b_first; x < b_end; ++x) r.extent[r.rank++] = sb.extent[x];
  const int in[2] = {a, b};
  return emit_tensor(g, &tensordot_info, in, 2, k, r);
}

/// Element `e` (flat, row major) of `x`, a scalar.
constexpr int index(graph& g, int x, int e) {
  if (x < 0) return -1;
  if (dims_of(g, x).rank == 0) return x;
  if (g.is_op(x, &pack_info)) return g.operand(x, e);
  return emit_tensor(g, &index_info, &x, 1, e, shape{});
}

/// Elements [begin, end) of `x` along `axis`.
constexpr int slice(graph& g, int x, int axis, int begin, int end) {
  if (x < 0) return -1;
  shape r = dims_of(g, x);
  if (axis >= r.rank || begin < 0 || end > r.extent[axis] || begin >= end)
    trace_shape_error("calx: a slice out of the tensor's range");
  if (begin == 0 && end == r.extent[axis]) return x;
  r.extent[axis] = end - begin;
  return emit_tensor(g, &slice_info, &x, 1, slice_attr{axis, begin, end}.encode(), r);
}

/// `x` placed at [begin, ...) along `axis` of a tensor of zeros of shape `to`: the transpose
/// of a slice.
constexpr int pad(graph& g, int x, shape to, int axis, int begin) {
  if (x < 0) return -1;
  if (dims_of(g, x) == to) return x;
  return emit_tensor(g, &pad_info, &x, 1, slice_attr{axis, begin, begin + dims_of(g, x).extent[axis]}.encode(), to);
}

/// The greatest (`max`) or least element over `axis` (-1: all).
constexpr int reduce_extremum(graph& g, int x, int axis, bool max) {
  if (x < 0) return -1;
  const shape s = dims_of(g, x);
  if (s.rank == 0) return x;
  if (axis >= s.rank) trace_shape_error("calx: a reduction over an axis the tensor does not have");
  shape r{};
  if (axis >= 0)
    for (int a = 0; a < s.rank; ++a)
      if (a != axis) r.extent[r.rank++] = s.extent[a];
  return emit_tensor(g, max ? &reduce_max_info : &reduce_min_info, &x, 1, axis, r);
}

/// A tensor of shape `s` from its elements' ids `e[0 .. s.size())` (-1: zero).
constexpr int pack(graph& g, const int* e, shape s) {
  const int n = s.size();
  bool any = false;
  for (int k = 0; k < n; ++k) any = any || e[k] >= 0;
  if (!any) return -1;
  if (s.rank == 0) return e[0];
  std::vector<int> in(static_cast<std::size_t>(n), 0);
  for (int k = 0; k < n; ++k) in[static_cast<std::size_t>(k)] = e[k] < 0 ? g.constant(0.0) : e[k];
  return emit_tensor(g, &pack_info, in.data(), n, 0, s);
}

/// A tensor of numbers `x` (elements `x[k]`, shape `s`) as a node of constants in `g`: a
/// tensor that is not traced, met where a trace needs a node.
template <class X>
constexpr int constant_pack(graph& g, const X& x, shape s) {
  std::vector<int> e(static_cast<std::size_t>(s.size()), -1);
  for (std::size_t k = 0; k < e.size(); ++k) e[k] = g.constant(static_cast<double>(x[k]));
  return pack(g, e.data(), s);
}

// Per-element lists. A program's inputs and outputs are one node per value, but a tensor
// can still arrive one id per element: built from scalars (a Jacobian's entries), a run of
// one tensor node's id standing for its elements in order. The helpers below read such lists
// (`tree_node<tensor>::set_traced`).

/// Which element of its node position `pos` of the flat list `ids` is (runs of one id are
/// that node's elements in order, repeated when the node is listed again).
template <class Ids>
constexpr int element_at(const graph& g, const Ids& ids, std::size_t pos) {
  const int id = ids[pos];
  if (id < 0) return 0;
  std::size_t run = 0;
  while (run < pos && ids[pos - run - 1] == id) ++run;
  return static_cast<int>(run % static_cast<std::size_t>(g.nodes[id].size()));
}

/// Position `pos` of the flat list `ids` as a scalar node (-1: zero).
template <class Ids>
constexpr int scalar_at(graph& g, const Ids& ids, std::size_t pos) {
  return index(g, ids[pos], element_at(g, ids, pos));
}

/// One node of shape `s` from positions [off, off + s.size()) of the flat list `ids` (-1:
/// zero): the node that fills them, or a pack of their elements.
constexpr int gather(graph& g, const std::vector<int>& ids, std::size_t off, shape s) {
  const int n = s.size();
  const int first = ids[off];
  bool whole = first < 0 || g.nodes[first].size() == n;
  for (int e = 1; e < n && whole; ++e) whole = ids[off + static_cast<std::size_t>(e)] == first;
  if (whole) return reshape(g, first, s);
  std::vector<int> e(static_cast<std::size_t>(n), -1);
  for (int k = 0; k < n; ++k) e[static_cast<std::size_t>(k)] = scalar_at(g, ids, off + static_cast<std::size_t>(k));
  return pack(g, e.data(), s);
}

// ---- rules ------------------------------------------------------------------------------

constexpr void broadcast_jvp(graph& g, const int* y, const int*, const int* t, int* out) {
  out[0] = t[0] < 0 ? -1 : broadcast_to(g, t[0], dims_of(g, y[0]));
}
constexpr void broadcast_vjp(graph& g, const int* ct, const int*, const int* x, int* out) {
  out[0] = sum_to(g, ct[0], dims_of(g, x[0]));
}
constexpr void reduce_sum_jvp(graph& g, const int* y, const int*, const int* t, int* out) {
  out[0] = reduce_sum(g, t[0], static_cast<int>(g.nodes[y[0]].value));
}
constexpr int unreduce(graph& g, int c, shape s, int axis);
constexpr void reduce_sum_vjp(graph& g, const int* ct, const int* y, const int* x, int* out) {
  out[0] = unreduce(g, ct[0], dims_of(g, x[0]), static_cast<int>(g.nodes[y[0]].value));
}
/// `c`, the result of a reduction of a tensor of shape `s` over `axis`, broadcast back to `s`.
constexpr int unreduce(graph& g, int c, shape s, int axis) {
  if (c < 0) return -1;
  if (axis >= 0) {
    shape kept = s;
    kept.extent[axis] = 1;
    c = reshape(g, c, kept);
  }
  return broadcast_to(g, c, s);
}

/// JAX's rule for max and min: ties share the derivative equally. The share of each
/// element of x (1/count where x attains the extremum, else 0).
constexpr int extremum_share(graph& g, int y, int x) {
  const int axis = static_cast<int>(g.nodes[y].value);
  const shape s = dims_of(g, x);
  int eq[2] = {x, unreduce(g, y, s, axis)};
  int sel[3] = {emit_op(g, ref_of<eq_op>(), eq), g.constant(1.0), g.constant(0.0)};
  const int hit = emit_op(g, ref_of<where_op>(), sel);
  int div[2] = {hit, unreduce(g, reduce_sum(g, hit, axis), s, axis)};
  return emit_op(g, ref_of<div_op>(), div);
}
constexpr void extremum_jvp(graph& g, const int* y, const int* x, const int* t, int* out) {
  int mul[2] = {t[0], extremum_share(g, y[0], x[0])};
  out[0] = reduce_sum(g, emit_op(g, ref_of<mul_op>(), mul), static_cast<int>(g.nodes[y[0]].value));
}
constexpr void extremum_vjp(graph& g, const int* ct, const int* y, const int* x, int* out) {
  const int axis = static_cast<int>(g.nodes[y[0]].value);
  int mul[2] = {unreduce(g, ct[0], dims_of(g, x[0]), axis), extremum_share(g, y[0], x[0])};
  out[0] = emit_op(g, ref_of<mul_op>(), mul);
}
constexpr void slice_jvp(graph& g, const int* y, const int*, const int* t, int* out) {
  const slice_attr a = slice_attr::decode(g.nodes[y[0]].value);
  out[0] = slice(g, t[0], a.axis, a.begin, a.end);
}
constexpr void slice_vjp(graph& g, const int* ct, const int* y, const int* x, int* out) {
  const slice_attr a = slice_attr::decode(g.nodes[y[0]].value);
  out[0] = pad(g, ct[0], dims_of(g, x[0]), a.axis, a.begin);
}
constexpr void pad_jvp(graph& g, const int* y, const int*, const int* t, int* out) {
  const slice_attr a = slice_attr::decode(g.nodes[y[0]].value);
  out[0] = pad(g, t[0], dims_of(g, y[0]), a.axis, a.begin);
}
constexpr void pad_vjp(graph& g, const int* ct, const int* y, const int*, int* out) {
  const slice_attr a = slice_attr::decode(g.nodes[y[0]].value);
  out[0] = slice(g, ct[0], a.axis, a.begin, a.end);
}

constexpr void tensordot_jvp(graph& g, const int* y, const int* x, const int* t, int* out) {
  const int k = static_cast<int>(g.nodes[y[0]].value);
  out[0] = add_ids(g, tensordot(g, t[0], x[1], k), tensordot(g, x[0], t[1], k));
}
/// The transposes of the four contractions, each again a contraction (none materialises a
/// transpose): with y = a . b, the cotangent of a pairs ct with b, that of b pairs a with ct.
constexpr void tensordot_vjp(graph& g, const int* ct, const int* y, const int* x, int* out) {
  using c = contraction;
  const int k = static_cast<int>(g.nodes[y[0]].value);
  const int ra = dims_of(g, x[0]).rank, rb = dims_of(g, x[1]).rank;
  if (k == c::ab) {  // y[p, q] = a[p, r] b[r, q]
    out[0] = rb == 1 ? tensordot(g, ct[0], x[1], c::outer) : tensordot(g, ct[0], x[1], c::abt);
    out[1] = ra == 1 ? tensordot(g, x[0], ct[0], c::outer) : tensordot(g, x[0], ct[0], c::atb);
  } else if (k == c::atb) {  // y[p, q] = a[r, p] b[r, q]
    out[0] = rb == 1 ? tensordot(g, x[1], ct[0], c::outer) : tensordot(g, x[1], ct[0], c::abt);
    out[1] = tensordot(g, x[0], ct[0], c::ab);
  } else if (k == c::abt) {  // y[p, q] = a[p, r] b[q, r]
    out[0] = tensordot(g, ct[0], x[1], c::ab);
    out[1] = ra == 1 ? tensordot(g, ct[0], x[0], c::outer) : tensordot(g, ct[0], x[0], c::atb);
  } else {  // outer product of vectors
    out[0] = tensordot(g, ct[0], x[1], c::ab);
    out[1] = tensordot(g, x[0], ct[0], c::ab);
  }
}
constexpr void transpose_jvp(graph& g, const int*, const int*, const int* t, int* out) { out[0] = transpose(g, t[0]); }
constexpr void transpose_vjp(graph& g, const int* ct, const int*, const int*, int* out) { out[0] = transpose(g, ct[0]); }
constexpr void reshape_jvp(graph& g, const int* y, const int*, const int* t, int* out) {
  out[0] = reshape(g, t[0], dims_of(g, y[0]));
}
constexpr void reshape_vjp(graph& g, const int* ct, const int*, const int* x, int* out) {
  out[0] = reshape(g, ct[0], dims_of(g, x[0]));
}
constexpr void index_jvp(graph& g, const int* y, const int*, const int* t, int* out) {
  out[0] = index(g, t[0], static_cast<int>(g.nodes[y[0]].value));
}
/// The cotangent of `x` is `ct` at element e and zero elsewhere: a pack, so its IR grows
/// with x's size (a scatter op would not; see docs/design.md).
constexpr void index_vjp(graph& g, const int* ct, const int* y, const int* x, int* out) {
  const shape s = dims_of(g, x[0]);
  std::vector<int> e(static_cast<std::size_t>(s.size()), -1);
  e[static_cast<std::size_t>(g.nodes[y[0]].value)] = ct[0];
  out[0] = pack(g, e.data(), s);
}
constexpr void pack_jvp(graph& g, const int* y, const int*, const int* t, int* out) {
  out[0] = pack(g, t, dims_of(g, y[0]));
}
constexpr void pack_vjp(graph& g, const int* ct, const int* y, const int*, int* out) {
  const int n = dims_of(g, y[0]).size();
  for (int k = 0; k < n; ++k) out[k] = index(g, ct[0], k);
}

constexpr op_info tensor_info(const char* name, tensor_op kind, int arity, unsigned linear_in, bool jointly,
                              void (*jvp)(graph&, const int*, const int*, const int*, int*),
                              void (*vjp)(graph&, const int*, const int*, const int*, int*)) {
  op_info i;
  i.name = name;
  i.arity = arity;
  i.hash = name_hash(name);
  i.tensor = kind;
  i.zero_preserving = true;
  i.linear_in = linear_in;
  i.jointly_linear = jointly;
  i.jvp = jvp;
  i.vjp = vjp;
  i.jvp_from = rule_source::own;
  i.vjp_from = rule_source::own;
  i.batch_from = batch_kernel::own;
  return i;
}

constexpr op_info broadcast_info() {
  return tensor_info("broadcast_in_dim", tensor_op::broadcast, 1, 1, true, &broadcast_jvp, &broadcast_vjp);
}
constexpr op_info reduce_sum_info() {
  return tensor_info("reduce_sum", tensor_op::reduce_sum, 1, 1, true, &reduce_sum_jvp, &reduce_sum_vjp);
}
constexpr op_info tensordot_info() {
  return tensor_info("tensordot", tensor_op::tensordot, 2, 3, false, &tensordot_jvp, &tensordot_vjp);
}
constexpr op_info transpose_info() {
  return tensor_info("transpose", tensor_op::transpose, 1, 1, true, &transpose_jvp, &transpose_vjp);
}
constexpr op_info reshape_info() {
  return tensor_info("reshape", tensor_op::reshape, 1, 1, true, &reshape_jvp, &reshape_vjp);
}
constexpr op_info index_info() { return tensor_info("index", tensor_op::index, 1, 1, true, &index_jvp, &index_vjp); }
constexpr op_info reduce_max_info() {
  return tensor_info("reduce_max", tensor_op::reduce_max, 1, 0, false, &extremum_jvp, &extremum_vjp);
}
constexpr op_info reduce_min_info() {
  return tensor_info("reduce_min", tensor_op::reduce_min, 1, 0, false, &extremum_jvp, &extremum_vjp);
}
constexpr op_info slice_info() { return tensor_info("slice", tensor_op::slice, 1, 1, true, &slice_jvp, &slice_vjp); }
constexpr op_info pad_info() { return tensor_info("pad", tensor_op::pad, 1, 1, true, &pad_jvp, &pad_vjp); }
/// `arity` is per node (one operand per element); the descriptor's is 0.
constexpr op_info pack_info() { return tensor_info("pack", tensor_op::pack, 0, ~0u, true, &pack_jvp, &pack_vjp); }

}  // namespace detail
CALX_END_NAMESPACE

#endif // CALX_DETAIL_TENSOR_IR_OPS_HPP
