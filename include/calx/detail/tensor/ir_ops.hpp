/// @file detail/tensor/ir_ops.hpp
/// @brief The built-in tensor ops: broadcast_in_dim, reduce_sum/max/min, tensordot,
/// transpose, reshape, index, slice, pad and pack. Each is an op type (calx/op_traits.hpp)
/// with `op_traits` as every op has: its rules written on node ids (`jvp_ids`, `vjp_ids`),
/// its `statement` (the loop codegen emits for a node, for every backend) and how
/// `to_string` prints its attributes. A node of one is one node however many elements it
/// touches (the IR grows with the program, not with shapes); its attributes (an axis, an
/// element, a contraction, slice bounds) are the node's `attr`, its shape the node's `dims`,
/// set by the functions below that record it. Elementwise ops need no tensor rules:
/// recording one broadcasts its operands to a common shape (`broadcast_operands`), and the
/// transpose of that broadcast is a reduce_sum. The ops indexed by runtime values (gather,
/// scatter_add, dynamic_slice, dynamic_pad) are detail/tensor/index_ops.hpp's, included
/// here so that every built-in op's traits are seen wherever one op's are.
#ifndef CALX_DETAIL_TENSOR_IR_OPS_HPP
#define CALX_DETAIL_TENSOR_IR_OPS_HPP

#include <calx/detail/internal_header_check.hpp>

#include <calx/detail/ir/graph.hpp>
#include <calx/detail/ir/ir.hpp>
#include <calx/detail/ir/op_info.hpp>
#include <calx/detail/ir/shape.hpp>
#include <calx/detail/ops/describe.hpp>
#include <calx/detail/static_for.hpp>
#include <calx/detail/tensor/contraction.hpp>
#include <calx/detail/tensor/elementwise_batches.hpp>
#include <calx/detail/tensor/index_ops.hpp>
#include <calx/detail/tensor/tensor_op_base.hpp>
#include <calx/op_traits.hpp>
#include <calx/ops/arithmetic.hpp>  // the rules record add, mul, div, eq and where
#include <calx/ops/selection.hpp>

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

CALX_BEGIN_NAMESPACE
namespace detail {

/// A slice's (and a pad's) attributes: elements [begin, end) along `axis`, the node's
/// `attr` in that order.
struct slice_attr {
  int axis = 0, begin = 0, end = 0;
  static constexpr slice_attr of(const node& n) { return {n.attr[0], n.attr[1], n.attr[2]}; }
};

/// Where a slice `a` of a tensor of shape `big` lies: the axis's geometry in `big`, and its
/// rows `begin` .. `begin + rows`; `whole` and `part` give an element's flat index in `big`
/// and in the slice. One place for `slice_loop` and the slice and pad statements, which
/// write the loop out.
struct slice_geometry : axis_geometry {
  int begin = 0, rows = 0;
  CALX_HOST_DEVICE static constexpr slice_geometry of(const shape& big, slice_attr a) {
    return {axis_geometry::of(big, a.axis), a.begin, a.end - a.begin};
  }
  CALX_HOST_DEVICE constexpr int whole(int o, int k, int i) const { return at(o, k, i); }
  CALX_HOST_DEVICE constexpr int part(int o, int k, int i) const { return (o * rows + k - begin) * inner + i; }
};

/// Whether a tensor op's operand, read as `A`, and its writer `Put` are numbers in memory
/// (registers of straight-line code, arguments read in place): host statements may then
/// copy runs of elements and run xsimd kernels. SIMD lanes of samples and values read one
/// by one take the element loops.
template <class A, class Put>
constexpr bool numbers_in_memory() {
  return std::is_floating_point_v<std::remove_cvref_t<A>> && std::is_lvalue_reference_v<A> &&
         requires(const Put& put) { put.address(); };
}

/// The loop of a slice of a tensor of numbers: `f(whole, part)` for every element of the
/// slice `a` of a tensor of shape `big`, with its flat index in `big` and in the slice (a
/// slice reads `whole` into `part`; a pad, its transpose, the other way). Only the slice's
/// elements are visited: a loop over all of `big` that stored under a condition was
/// miscompiled by g++ 12's vectoriser at -O2 (the gradient of `prod` through a slice came
/// out wrong). The slice and pad statements write the same loop out (a function fewer per
/// node for the compiler).
template <class F>
CALX_HOST_DEVICE constexpr CALX_INLINE void slice_loop(const shape& big, slice_attr a, const F& f) {
  const slice_geometry s = slice_geometry::of(big, a);
  for (int o = 0; o < s.outer; ++o)
    for (int k = a.begin; k < a.end; ++k)
      for (int i = 0; i < s.inner; ++i) f(s.whole(o, k, i), s.part(o, k, i));
}

/// What the traits of the tensor ops of one operand that are linear in it say, beside
/// `tensor_op_traits` (detail/tensor/tensor_op_base.hpp).
struct linear_tensor_op_traits : tensor_op_traits {
  static constexpr int arity = 1;
  static constexpr unsigned linear_in = 1;
  static constexpr bool jointly_linear = true;
};

/// The `[axis=a]` a reduction prints (none over every axis).
inline std::string axis_text(int axis) { return axis < 0 ? "" : "[axis=" + std::to_string(axis) + "]"; }

/// What reduce_sum (`Pick` = add_op), reduce_max (max_op) and reduce_min (min_op) share:
/// the fold of `Pick`'s kernel over axis `attr[0]` of the operand (-1: every axis), in
/// order; max and min NaN-propagating, as the scalar ops are.
template <class Pick>
struct reduction_op_traits : tensor_op_traits {
  static constexpr int arity = 1;
  using pick = Pick;  ///< the scalar op the fold combines with (fusion folds with it too)
  template <const auto& IR, std::size_t J, class Get, class Put>
  CALX_HOST_DEVICE static CALX_INLINE void statement(const Get& get, const Put& put) {
    constexpr operand_c<IR.operand(J, 0)> a{};
    // Constants, not references into IR: device code may not read a host variable.
    constexpr shape in = IR.nodes[IR.operand(J, 0)].dims;
    constexpr int axis = IR.nodes[J].attr[0];
#ifndef __CUDA_ARCH__
    // Every element of numbers in memory into one: xsimd batches (elementwise_batches.hpp).
    using A = decltype(get(a, 0));
    using V = std::remove_cvref_t<A>;
    if constexpr (std::is_floating_point_v<V> && std::is_lvalue_reference_v<A> &&
                  (axis < 0 || in.rank == 1)) {
      if constexpr (in.size() >= 4 * static_cast<int>(xsimd::batch<V>::size)) {
        put(0, reduce_batches<op_traits<Pick>, in.size()>(&get(a, 0)));
        return;
      }
    }
#endif
    reduce_loop(in, axis, [&](int e) { return get(a, e); }, put,
                [](const auto& acc, const auto& v) { return op_traits<Pick>::kernel(acc, v); });
  }
  static std::string attribute_text(const node& n) { return axis_text(n.attr[0]); }
};

/// reduce_max and reduce_min: JAX's rule, ties share the derivative equally.
constexpr void extremum_jvp(graph& g, const int* y, const int* x, const int* t, int* out);
constexpr void extremum_vjp(graph& g, const int* ct, const int* y, const int* x, int* out);
template <class Pick>
struct extremum_op_traits : reduction_op_traits<Pick> {
  static constexpr void jvp_ids(graph& g, const int* y, const int* x, const int* t, int* out) { extremum_jvp(g, y, x, t, out); }
  static constexpr void vjp_ids(graph& g, const int* ct, const int* y, const int* x, int* out) { extremum_vjp(g, ct, y, x, out); }
};

template <const auto& IR, std::size_t J, class Get, class Put>
struct pack_element_fn {
  const Get& get;
  const Put& put;
  template <std::size_t E>
  CALX_HOST_DEVICE CALX_INLINE void operator()(std::integral_constant<std::size_t, E>) const {
    put(static_cast<int>(E), get(operand_c<IR.operand(J, static_cast<int>(E))>{}, 0));
  }
};

}  // namespace detail

/// NumPy's broadcast of the operand to the node's shape (a scalar or a tensor of size-1 axes).
template <>
struct op_traits<broadcast_in_dim_op> : detail::linear_tensor_op_traits {
  static constexpr const char* name = "broadcast_in_dim";
  static constexpr detail::rule_ids_fn jvp_ids, vjp_ids;
  template <const auto& IR, std::size_t J, class Get, class Put>
  CALX_HOST_DEVICE static CALX_INLINE void statement(const Get& get, const Put& put) {
    constexpr detail::operand_c<IR.operand(J, 0)> a{};
    constexpr detail::shape in = IR.nodes[IR.operand(J, 0)].dims, out = IR.nodes[J].dims;
    if constexpr (in.size() == 1) {
      const auto v = get(a, 0);
      for (int e = 0; e < out.size(); ++e) put(e, v);
    } else {
      for (int e = 0; e < out.size(); ++e) put(e, get(a, detail::broadcast_source_index(in, out, e)));
    }
  }
};

/// The sum over axis `attr[0]` of the operand (-1: every axis, a scalar).
template <>
struct op_traits<reduce_sum_op> : detail::reduction_op_traits<add_op> {
  static constexpr const char* name = "reduce_sum";
  static constexpr unsigned linear_in = 1;
  static constexpr bool jointly_linear = true;
  static constexpr detail::rule_ids_fn jvp_ids, vjp_ids;
};

template <>
struct op_traits<reduce_max_op> : detail::extremum_op_traits<max_op> {
  static constexpr const char* name = "reduce_max";
};
template <>
struct op_traits<reduce_min_op> : detail::extremum_op_traits<min_op> {
  static constexpr const char* name = "reduce_min";
};

/// A contraction of its two operands; `attr[0]` says which axes (`detail::contraction`).
template <>
struct op_traits<tensordot_op> : detail::tensor_op_traits {
  static constexpr const char* name = "tensordot";
  static constexpr int arity = 2;
  static constexpr unsigned linear_in = 3;
  static constexpr detail::rule_ids_fn jvp_ids, vjp_ids;
  template <const auto& IR, std::size_t J, class Get, class Put>
  CALX_HOST_DEVICE static CALX_INLINE void statement(const Get& get, const Put& put) {
    constexpr detail::operand_c<IR.operand(J, 0)> a{};
    constexpr detail::operand_c<IR.operand(J, 1)> b{};
    constexpr int k = IR.nodes[J].attr[0];
    constexpr detail::contraction_loops loops = detail::loops_of(k, IR.nodes[IR.operand(J, 0)].dims, IR.nodes[IR.operand(J, 1)].dims);
    // Numbers whose elements are in memory (registers of straight-line code, arguments read
    // in place): the kernels. SIMD lanes of samples and values read one by one: the loop.
    if constexpr (detail::numbers_in_memory<decltype(get(a, 0)), Put>() && std::is_lvalue_reference_v<decltype(get(b, 0))>)
      detail::contract_in_memory<k, loops>(&get(a, 0), &get(b, 0), put.address());
    else
      detail::contract_loop<k, loops>([&](int e) { return get(a, e); }, [&](int e) { return get(b, e); }, put);
  }
  static std::string attribute_text(const detail::node& n) {
    const int k = n.attr[0];
    return k == detail::contraction::atb   ? "[contract=1 transpose_a]"
           : k == detail::contraction::abt ? "[contract=1 transpose_b]"
                                           : "[contract=" + std::to_string(k) + "]";
  }
};

/// The axes of a matrix swapped.
template <>
struct op_traits<transpose_op> : detail::linear_tensor_op_traits {
  static constexpr const char* name = "transpose";
  static constexpr detail::rule_ids_fn jvp_ids, vjp_ids;
  template <const auto& IR, std::size_t J, class Get, class Put>
  CALX_HOST_DEVICE static CALX_INLINE void statement(const Get& get, const Put& put) {
    constexpr detail::operand_c<IR.operand(J, 0)> a{};
    constexpr int rows = IR.nodes[IR.operand(J, 0)].dims.extent[0], cols = IR.nodes[IR.operand(J, 0)].dims.extent[1];
    for (int c = 0; c < cols; ++c)
      for (int r = 0; r < rows; ++r) put(c * rows + r, get(a, r * cols + c));
  }
};

/// The same elements, row major, in the node's shape.
template <>
struct op_traits<reshape_op> : detail::linear_tensor_op_traits {
  static constexpr const char* name = "reshape";
  static constexpr detail::rule_ids_fn jvp_ids, vjp_ids;
  template <const auto& IR, std::size_t J, class Get, class Put>
  CALX_HOST_DEVICE static CALX_INLINE void statement(const Get& get, const Put& put) {
    constexpr detail::operand_c<IR.operand(J, 0)> a{};
    constexpr int size = IR.nodes[J].dims.size();
    for (int e = 0; e < size; ++e) put(e, get(a, e));
  }
};

/// Element `attr[0]` (flat, row major) of the operand, a scalar.
template <>
struct op_traits<index_op> : detail::linear_tensor_op_traits {
  static constexpr const char* name = "index";
  static constexpr detail::rule_ids_fn jvp_ids, vjp_ids;
  template <const auto& IR, std::size_t J, class Get, class Put>
  CALX_HOST_DEVICE static CALX_INLINE void statement(const Get& get, const Put& put) {
    constexpr int element = IR.nodes[J].attr[0];
    put(0, get(detail::operand_c<IR.operand(J, 0)>{}, element));
  }
  static std::string attribute_text(const detail::node& n) { return "[" + std::to_string(n.attr[0]) + "]"; }
};

/// Elements [begin, end) of the operand along an axis (`detail::slice_attr`).
template <>
struct op_traits<slice_op> : detail::linear_tensor_op_traits {
  static constexpr const char* name = "slice";
  static constexpr detail::rule_ids_fn jvp_ids, vjp_ids;
  template <const auto& IR, std::size_t J, class Get, class Put>
  CALX_HOST_DEVICE static CALX_INLINE void statement(const Get& get, const Put& put) {
    constexpr detail::operand_c<IR.operand(J, 0)> a{};
    constexpr detail::shape in = IR.nodes[IR.operand(J, 0)].dims;
    constexpr detail::slice_attr at = detail::slice_attr::of(IR.nodes[J]);
    constexpr detail::slice_geometry s = detail::slice_geometry::of(in, at);
#ifndef __CUDA_ARCH__
    // Numbers in memory: each outer block of the slice is one contiguous run (memmove).
    if constexpr (detail::numbers_in_memory<decltype(get(a, 0)), Put>()) {
      for (int o = 0; o < s.outer; ++o)
        std::copy_n(&get(a, s.whole(o, at.begin, 0)), s.rows * s.inner, put.address() + s.part(o, at.begin, 0));
      return;
    }
#endif
    for (int o = 0; o < s.outer; ++o)
      for (int k = at.begin; k < at.end; ++k)
        for (int i = 0; i < s.inner; ++i) put(s.part(o, k, i), get(a, s.whole(o, k, i)));
  }
  static std::string attribute_text(const detail::node& n) {
    const detail::slice_attr a = detail::slice_attr::of(n);
    return "[axis=" + std::to_string(a.axis) + ", " + std::to_string(a.begin) + ":" + std::to_string(a.end) + "]";
  }
};

/// The operand placed at [begin, end) along an axis of a tensor of zeros of the node's
/// shape: the transpose of a slice.
template <>
struct op_traits<pad_op> : detail::linear_tensor_op_traits {
  static constexpr const char* name = "pad";
  static constexpr detail::rule_ids_fn jvp_ids, vjp_ids;
  template <const auto& IR, std::size_t J, class Get, class Put>
  CALX_HOST_DEVICE static CALX_INLINE void statement(const Get& get, const Put& put) {
    constexpr detail::operand_c<IR.operand(J, 0)> a{};
    using V = std::remove_cvref_t<decltype(get(a, 0))>;
    constexpr detail::shape out = IR.nodes[J].dims;
    constexpr detail::slice_attr at = detail::slice_attr::of(IR.nodes[J]);
    constexpr detail::slice_geometry s = detail::slice_geometry::of(out, at);
#ifndef __CUDA_ARCH__
    // Numbers in memory: per outer block, the operand's run copied (memmove) and the zeros
    // around it filled, in that order, so that no overlap of the two loses an element.
    if constexpr (detail::numbers_in_memory<decltype(get(a, 0)), Put>()) {
      V* to = put.address();
      for (int o = 0; o < s.outer; ++o) {
        std::copy_n(&get(a, s.part(o, at.begin, 0)), s.rows * s.inner, to + s.whole(o, at.begin, 0));
        std::fill_n(to + s.whole(o, 0, 0), at.begin * s.inner, V(0));
        std::fill_n(to + s.whole(o, at.end, 0), (s.n - at.end) * s.inner, V(0));
      }
      return;
    }
#endif
    for (int o = 0; o < s.outer; ++o)
      for (int k = 0; k < s.n; ++k)
        for (int i = 0; i < s.inner; ++i) {
          if (k < at.begin || k >= at.end)
            put(s.whole(o, k, i), detail::zero_of<V>());
          else
            put(s.whole(o, k, i), V(get(a, s.part(o, k, i))));
        }
  }
  static std::string attribute_text(const detail::node& n) { return op_traits<slice_op>::attribute_text(n); }
};

/// A tensor of the node's shape from its elements, one scalar operand each (the node's
/// `arity`; the op's is 0).
template <>
struct op_traits<pack_op> : detail::tensor_op_traits {
  static constexpr const char* name = "pack";
  static constexpr int arity = 0;
  static constexpr unsigned linear_in = ~0u;
  static constexpr bool jointly_linear = true;
  static constexpr detail::rule_ids_fn jvp_ids, vjp_ids;
  template <const auto& IR, std::size_t J, class Get, class Put>
  CALX_HOST_DEVICE static CALX_INLINE void statement(const Get& get, const Put& put) {
    detail::static_for<static_cast<std::size_t>(IR.nodes[J].dims.size())>(detail::pack_element_fn<IR, J, Get, Put>{get, put});
  }
};

namespace detail {

/// `broadcast_in_dim`'s description, which `graph` names before this header is seen
/// (op_info.hpp): recording any elementwise op may insert one.
constexpr op_info broadcast_info() { return make_op_info<broadcast_in_dim_op>(); }

constexpr const shape& dims_of(const graph& g, int id) { return g.nodes[id].dims; }

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
  return emit_tensor(g, ref_of<reduce_sum_op>(), &x, 1, {axis}, r);
}

/// The same elements in shape `to` (row major).
constexpr int reshape(graph& g, int x, shape to) {
  if (x < 0) return -1;
  if (dims_of(g, x) == to) return x;
  if (dims_of(g, x).size() != to.size()) trace_shape_error("calx: reshape to a shape of another size");
  return emit_tensor(g, ref_of<reshape_op>(), &x, 1, {}, to);
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
  return emit_tensor(g, ref_of<transpose_op>(), &x, 1, {}, r);
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
  return emit_tensor(g, ref_of<tensordot_op>(), in, 2, {k}, r);
}

/// Element `e` (flat, row major) of `x`, a scalar.
constexpr int index(graph& g, int x, int e) {
  if (x < 0) return -1;
  if (dims_of(g, x).rank == 0) return x;
  if (g.is_op(x, ref_of<pack_op>())) return g.operand(x, e);
  return emit_tensor(g, ref_of<index_op>(), &x, 1, {e}, shape{});
}

/// Elements [begin, end) of `x` along `axis`.
constexpr int slice(graph& g, int x, int axis, int begin, int end) {
  if (x < 0) return -1;
  shape r = dims_of(g, x);
  if (axis >= r.rank || begin < 0 || end > r.extent[axis] || begin >= end)
    trace_shape_error("calx: a slice out of the tensor's range");
  if (begin == 0 && end == r.extent[axis]) return x;
  r.extent[axis] = end - begin;
  return emit_tensor(g, ref_of<slice_op>(), &x, 1, {axis, begin, end}, r);
}

/// `x` placed at [begin, ...) along `axis` of a tensor of zeros of shape `to`: the transpose
/// of a slice.
constexpr int pad(graph& g, int x, shape to, int axis, int begin) {
  if (x < 0) return -1;
  if (dims_of(g, x) == to) return x;
  return emit_tensor(g, ref_of<pad_op>(), &x, 1, {axis, begin, begin + dims_of(g, x).extent[axis]}, to);
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
  return emit_tensor(g, max ? ref_of<reduce_max_op>() : ref_of<reduce_min_op>(), &x, 1, {axis}, r);
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
  return emit_tensor(g, ref_of<pack_op>(), in.data(), n, {}, s);
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
  const int axis = g.nodes[y].attr[0];
  const shape s = dims_of(g, x);
  int eq[2] = {x, unreduce(g, y, s, axis)};
  int sel[3] = {emit_op(g, ref_of<eq_op>(), eq), g.constant(1.0), g.constant(0.0)};
  const int hit = emit_op(g, ref_of<where_op>(), sel);
  int div[2] = {hit, unreduce(g, reduce_sum(g, hit, axis), s, axis)};
  return emit_op(g, ref_of<div_op>(), div);
}
/// The rules of reduce_max and reduce_min.
constexpr void extremum_jvp(graph& g, const int* y, const int* x, const int* t, int* out) {
  int mul[2] = {t[0], extremum_share(g, y[0], x[0])};
  out[0] = reduce_sum(g, emit_op(g, ref_of<mul_op>(), mul), g.nodes[y[0]].attr[0]);
}
constexpr void extremum_vjp(graph& g, const int* ct, const int* y, const int* x, int* out) {
  int mul[2] = {unreduce(g, ct[0], dims_of(g, x[0]), g.nodes[y[0]].attr[0]), extremum_share(g, y[0], x[0])};
  out[0] = emit_op(g, ref_of<mul_op>(), mul);
}

}  // namespace detail

// ---- rules ------------------------------------------------------------------------------
// Written on node ids of graph `g` (see `op_info`): `jvp_ids(g, y, x, t, out)`,
// `vjp_ids(g, ct, y, x, out)`; an attribute is read from the result node `y`.

constexpr void op_traits<broadcast_in_dim_op>::jvp_ids(detail::graph& g, const int* y, const int*, const int* t, int* out) {
  out[0] = t[0] < 0 ? -1 : detail::broadcast_to(g, t[0], detail::dims_of(g, y[0]));
}
constexpr void op_traits<broadcast_in_dim_op>::vjp_ids(detail::graph& g, const int* ct, const int*, const int* x, int* out) {
  out[0] = detail::sum_to(g, ct[0], detail::dims_of(g, x[0]));
}

constexpr void op_traits<reduce_sum_op>::jvp_ids(detail::graph& g, const int* y, const int*, const int* t, int* out) {
  out[0] = detail::reduce_sum(g, t[0], g.nodes[y[0]].attr[0]);
}
constexpr void op_traits<reduce_sum_op>::vjp_ids(detail::graph& g, const int* ct, const int* y, const int* x, int* out) {
  out[0] = detail::unreduce(g, ct[0], detail::dims_of(g, x[0]), g.nodes[y[0]].attr[0]);
}

constexpr void op_traits<slice_op>::jvp_ids(detail::graph& g, const int* y, const int*, const int* t, int* out) {
  const detail::slice_attr a = detail::slice_attr::of(g.nodes[y[0]]);
  out[0] = detail::slice(g, t[0], a.axis, a.begin, a.end);
}
constexpr void op_traits<slice_op>::vjp_ids(detail::graph& g, const int* ct, const int* y, const int* x, int* out) {
  const detail::slice_attr a = detail::slice_attr::of(g.nodes[y[0]]);
  out[0] = detail::pad(g, ct[0], detail::dims_of(g, x[0]), a.axis, a.begin);
}
constexpr void op_traits<pad_op>::jvp_ids(detail::graph& g, const int* y, const int*, const int* t, int* out) {
  const detail::slice_attr a = detail::slice_attr::of(g.nodes[y[0]]);
  out[0] = detail::pad(g, t[0], detail::dims_of(g, y[0]), a.axis, a.begin);
}
constexpr void op_traits<pad_op>::vjp_ids(detail::graph& g, const int* ct, const int* y, const int*, int* out) {
  const detail::slice_attr a = detail::slice_attr::of(g.nodes[y[0]]);
  out[0] = detail::slice(g, ct[0], a.axis, a.begin, a.end);
}

constexpr void op_traits<tensordot_op>::jvp_ids(detail::graph& g, const int* y, const int* x, const int* t, int* out) {
  const int k = g.nodes[y[0]].attr[0];
  out[0] = detail::add_ids(g, detail::tensordot(g, t[0], x[1], k), detail::tensordot(g, x[0], t[1], k));
}
/// The transposes of the four contractions, each again a contraction (none materialises a
/// transpose): with y = a . b, the cotangent of a pairs ct with b, that of b pairs a with ct.
constexpr void op_traits<tensordot_op>::vjp_ids(detail::graph& g, const int* ct, const int* y, const int* x, int* out) {
  using c = detail::contraction;
  using detail::tensordot;
  const int k = g.nodes[y[0]].attr[0];
  const int ra = detail::dims_of(g, x[0]).rank, rb = detail::dims_of(g, x[1]).rank;
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

constexpr void op_traits<transpose_op>::jvp_ids(detail::graph& g, const int*, const int*, const int* t, int* out) {
  out[0] = detail::transpose(g, t[0]);
}
constexpr void op_traits<transpose_op>::vjp_ids(detail::graph& g, const int* ct, const int*, const int*, int* out) {
  out[0] = detail::transpose(g, ct[0]);
}

constexpr void op_traits<reshape_op>::jvp_ids(detail::graph& g, const int* y, const int*, const int* t, int* out) {
  out[0] = detail::reshape(g, t[0], detail::dims_of(g, y[0]));
}
constexpr void op_traits<reshape_op>::vjp_ids(detail::graph& g, const int* ct, const int*, const int* x, int* out) {
  out[0] = detail::reshape(g, ct[0], detail::dims_of(g, x[0]));
}

constexpr void op_traits<index_op>::jvp_ids(detail::graph& g, const int* y, const int*, const int* t, int* out) {
  out[0] = detail::index(g, t[0], g.nodes[y[0]].attr[0]);
}
/// The cotangent of `x` is `ct` at element e and zero elsewhere: a pack, so its IR grows
/// with x's size (a scatter op would not; see docs/design.md).
constexpr void op_traits<index_op>::vjp_ids(detail::graph& g, const int* ct, const int* y, const int* x, int* out) {
  const detail::shape s = detail::dims_of(g, x[0]);
  std::vector<int> e(static_cast<std::size_t>(s.size()), -1);
  e[static_cast<std::size_t>(g.nodes[y[0]].attr[0])] = ct[0];
  out[0] = detail::pack(g, e.data(), s);
}

constexpr void op_traits<pack_op>::jvp_ids(detail::graph& g, const int* y, const int*, const int* t, int* out) {
  out[0] = detail::pack(g, t, detail::dims_of(g, y[0]));
}
constexpr void op_traits<pack_op>::vjp_ids(detail::graph& g, const int* ct, const int* y, const int*, int* out) {
  const int n = detail::dims_of(g, y[0]).size();
  for (int k = 0; k < n; ++k) out[k] = detail::index(g, ct[0], k);
}

CALX_END_NAMESPACE

#endif // CALX_DETAIL_TENSOR_IR_OPS_HPP
