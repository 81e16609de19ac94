/// @file detail/tensor/index_ops.hpp
/// @brief The tensor ops that index by runtime values: gather (`calx::take` with an index
/// tensor), scatter_add (`calx::segment_sum`, and gather's transpose), dynamic_slice and
/// dynamic_pad (its transpose). Built-in tensor ops as those of detail/tensor/ir_ops.hpp
/// (which includes this header, so that every built-in op is seen wherever one is)
/// (rules on node ids, a statement over whole values), whose operands are a tensor and
/// its indices: a node of values that are integers (an index tensor argument, a loop's
/// index) or reals, truncated toward zero. Out of range, an index follows JAX: gather and
/// dynamic_slice clamp (`x[i]`, `lax.dynamic_slice`: a negative index counts from the end
/// first), scatter_add drops the entry (`segment_sum`); each transpose reads its indices as
/// the op it transposes, so a gradient is the adjoint of the primal.
#ifndef CALX_DETAIL_TENSOR_INDEX_OPS_HPP
#define CALX_DETAIL_TENSOR_INDEX_OPS_HPP

#include <calx/detail/internal_header_check.hpp>

#include <calx/detail/ir/graph.hpp>
#include <calx/detail/ir/shape.hpp>
#include <calx/detail/ir/ir.hpp>
#include <calx/detail/ops/describe.hpp>
#include <calx/detail/static_for.hpp>
#include <calx/detail/tensor/tensor_op_base.hpp>
#include <calx/op_traits.hpp>

#include <cstddef>
#include <string>
#include <type_traits>

CALX_BEGIN_NAMESPACE
namespace detail {

/// How an index op reads an index out of range (a node's `attr[1]`): `clamp` counts a
/// negative index from the end, then clamps it into range; `drop` leaves the entry out (a
/// gather reads zero, a scatter adds nothing).
struct index_mode {
  static constexpr int clamp = 0;
  static constexpr int drop = 1;
};

/// Index `v` (a number, truncated toward zero) into an axis of `n` entries by JAX's rule for
/// `x[i]` and `lax.dynamic_slice`: a negative one counts from the end, then it is clamped
/// into [0, last] (`last`: n - 1 for an entry, n - size for a slice's start). NaN is 0.
template <class T>
CALX_HOST_DEVICE constexpr CALX_INLINE int clamped_index(T v, int n, int last) {
  // In range, the usual case, one test and a conversion (selects for every case took a
  // gather of 100 rows from 108 to 179 ns); an `int`, one unsigned comparison.
  if constexpr (std::is_same_v<T, int>) {
    if (static_cast<unsigned>(v) <= static_cast<unsigned>(last)) [[likely]]
      return v;
  } else if (v >= T(0) && v < T(last) + T(1)) [[likely]] {
    return static_cast<int>(v);
  }
  // Bounded before the conversion, which is then defined (NaN fails every test: 0).
  const T lo = -T(n) - T(1), hi = T(n) + T(1);
  const int i = v > lo ? (v < hi ? static_cast<int>(v) : n + 1) : -n - 1;
  const int w = i < 0 ? i + n : i;
  return w < 0 ? 0 : w > last ? last : w;
}
/// Index `v` into an axis of `n` entries with `segment_sum`'s rule: -1 (dropped) unless
/// it lies in [0, n) once truncated toward zero.
template <class T>
CALX_HOST_DEVICE constexpr CALX_INLINE int kept_index(T v, int n) {
  return v > T(-1) && v < T(n) ? static_cast<int>(v) : -1;
}
template <class T>
CALX_HOST_DEVICE constexpr CALX_INLINE int index_by(int mode, T v, int n) {
  return mode == index_mode::drop ? kept_index(v, n) : clamped_index(v, n, n - 1);
}

/// Reads an index into an axis of `n` entries by `mode`, and a slice's start (`size`
/// entries) into an axis of `n`.
struct index_reader {
  int mode, n;
  template <class T>
  CALX_HOST_DEVICE constexpr CALX_INLINE int operator()(T v) const {
    return index_by(mode, v, n);
  }
};
struct start_reader {
  int n, size;
  template <class T>
  CALX_HOST_DEVICE constexpr CALX_INLINE int operator()(T v) const {
    return clamped_index(v, n, n - size);
  }
};

/// The number type of a value of type V (a number, or a SIMD batch).
template <class V>
struct lane_type {
  using type = V;
};
template <class V>
  requires(!std::is_arithmetic_v<V>)
struct lane_type<V> {
  using type = typename V::value_type;
};
template <class V>
using lane_t = typename lane_type<V>::type;

/// Lane `l` of `v` (a number: itself), and a value of type V from its lanes.
template <class V>
CALX_HOST_DEVICE CALX_INLINE auto lane_of(const V& v, std::size_t l) {
  if constexpr (std::is_arithmetic_v<V>) {
    (void)l;
    return v;
  } else {
    alignas(64) typename V::value_type lanes[V::size];
    v.store_aligned(lanes);
    return lanes[l];
  }
}
template <class V, class F>
CALX_HOST_DEVICE CALX_INLINE V from_lanes(const F& f) {
  if constexpr (std::is_arithmetic_v<V>) {
    return f(std::size_t{0});
  } else {
    alignas(64) typename V::value_type lanes[V::size];
    for (std::size_t l = 0; l < V::size; ++l) lanes[l] = f(l);
    return V::load_aligned(lanes);
  }
}
template <class V>
inline constexpr std::size_t lanes_v = [] {
  if constexpr (std::is_arithmetic_v<V>)
    return std::size_t{1};
  else
    return V::size;
}();

/// Each lane's index of `v` (`index(lane value)`), and whether they agree (the index operand
/// is the same for every sample of a SIMD group, or a number): then the op runs as on
/// numbers, else lane by lane.
template <class V, class Index>
struct lane_indices {
  int at[lanes_v<V>] = {};
  bool uniform = true;
  CALX_HOST_DEVICE CALX_INLINE lane_indices(const V& v, const Index& index) {
    if constexpr (std::is_arithmetic_v<V>) {
      at[0] = index(v);
    } else {
      alignas(64) typename V::value_type lanes[V::size];
      v.store_aligned(lanes);
      for (std::size_t l = 0; l < V::size; ++l) {
        at[l] = index(lanes[l]);
        uniform = uniform && at[l] == at[0];
      }
    }
  }
};

/// Element e of index operand `ix` as `get` gives an index: the caller's `int` where it has
/// one (an index tensor argument in straight-line code: `register_reader::index`), else the
/// operand's value.
template <class Get, int Id>
CALX_HOST_DEVICE CALX_INLINE auto index_operand(const Get& get, operand_c<Id> ix, int e) {
  if constexpr (requires { get.index(ix, e); })
    return get.index(ix, e);
  else
    return get(ix, e);
}
/// `lane_indices` of an index as `index_operand` reads it (an `int`, a number or lanes).
template <class Index, class X>
CALX_HOST_DEVICE CALX_INLINE lane_indices<X, Index> indices_of(const X& x, const Index& index) {
  return lane_indices<X, Index>(x, index);
}

/// The operands of an index op: the tensor (operand 0, the one it is linear in) and the
/// indices (operand 1: no tangent, no cotangent).
struct index_op_traits : tensor_op_traits {
  static constexpr int arity = 2;
  static constexpr unsigned linear_in = 1;
  static constexpr bool jointly_linear = true;
};

inline std::string mode_text(int axis, int mode) {
  return "[axis=" + std::to_string(axis) + (mode == index_mode::drop ? ", drop]" : ", clamp]");
}

}  // namespace detail

/// Entries of operand 0 along axis `attr[0]` at the indices of operand 1, read by
/// `index_mode` `attr[1]` (dropped entries read 0).
template <>
struct op_traits<gather_op> : detail::index_op_traits {
  static constexpr const char* name = "gather";
  static constexpr detail::rule_ids_fn jvp_ids, vjp_ids;
  template <const auto& IR, std::size_t J, class Get, class Put>
  CALX_HOST_DEVICE static CALX_INLINE void statement(const Get& get, const Put& put) {
    constexpr detail::operand_c<IR.operand(J, 0)> a{};
    constexpr detail::operand_c<IR.operand(J, 1)> ix{};
    constexpr detail::axis_geometry s = detail::axis_geometry::of(IR.nodes[IR.operand(J, 0)].dims, IR.nodes[J].attr[0]);
    constexpr int count = IR.nodes[IR.operand(J, 1)].dims.size(), mode = IR.nodes[J].attr[1];
    using V = std::remove_cvref_t<decltype(get(a, 0))>;
    for (int k = 0; k < count; ++k) {
      const auto j = detail::indices_of(detail::index_operand(get, ix, k), detail::index_reader{mode, s.n});
      for (int o = 0; o < s.outer; ++o)
        for (int i = 0; i < s.inner; ++i) {
          const int to = (o * count + k) * s.inner + i;
          if (j.uniform) {
            if constexpr (mode == detail::index_mode::clamp)  // every index lands in the axis
              put(to, V(get(a, s.at(o, j.at[0], i))));
            else
              put(to, j.at[0] < 0 ? detail::zero_of<V>() : V(get(a, s.at(o, j.at[0], i))));
          } else {
            put(to, detail::from_lanes<V>([&](std::size_t l) {
                  return j.at[l] < 0 ? detail::lane_t<V>(0) : detail::lane_of(V(get(a, s.at(o, j.at[l], i))), l);
                }));
          }
        }
    }
  }
  static std::string attribute_text(const detail::node& n) { return detail::mode_text(n.attr[0], n.attr[1]); }
};

/// Operand 0 (axes `attr[0]` on are those of operand 1, the indices) added into zeros of
/// the node's shape, entry k along axis `attr[0]` at entry idx[k], by `index_mode`
/// `attr[1]`.
template <>
struct op_traits<scatter_add_op> : detail::index_op_traits {
  static constexpr const char* name = "scatter_add";
  static constexpr detail::rule_ids_fn jvp_ids, vjp_ids;
  template <const auto& IR, std::size_t J, class Get, class Put>
  CALX_HOST_DEVICE static CALX_INLINE void statement(const Get& get, const Put& put) {
    constexpr detail::operand_c<IR.operand(J, 0)> a{};
    constexpr detail::operand_c<IR.operand(J, 1)> ix{};
    constexpr detail::axis_geometry s = detail::axis_geometry::of(IR.nodes[J].dims, IR.nodes[J].attr[0]);
    constexpr int count = IR.nodes[IR.operand(J, 1)].dims.size(), mode = IR.nodes[J].attr[1];
    constexpr int size = IR.nodes[J].dims.size();
    using V = std::remove_cvref_t<decltype(get(a, 0))>;
    const detail::index_reader read{mode, s.n};
    if constexpr (std::is_arithmetic_v<V> && requires { put.address(); }) {
      // Numbers in straight-line code: the sums in the node's own registers.
      for (int e = 0; e < size; ++e) put(e, V(0));
      V* out = put.address();
      for (int k = 0; k < count; ++k) {
        const int j = read(detail::index_operand(get, ix, k));
        if (j >= 0)
          for (int o = 0; o < s.outer; ++o) {
            V* row = out + s.at(o, j, 0);
            const int from = (o * count + k) * s.inner;
            if constexpr (s.inner <= 8) {
              // A short row written out, its entries read before any is stored (which may
              // alias them, for all the compiler knows): then the adds go in vectors. As a
              // loop, g++ kept 3 adds a loop of scalar ones, 2x the time.
              V u[s.inner];
              detail::static_for<static_cast<std::size_t>(s.inner)>([&](auto i) { u[i] = get(a, from + static_cast<int>(i)); });
              detail::static_for<static_cast<std::size_t>(s.inner)>([&](auto i) { row[i] += u[i]; });
            } else
              for (int i = 0; i < s.inner; ++i) row[i] += get(a, from + i);
          }
      }
    } else {
      // Elsewhere (SIMD lanes, whose samples' indices may differ; device code) in a buffer,
      // lane by lane, then to the node's values.
      using T = detail::lane_t<V>;
      constexpr std::size_t W = detail::lanes_v<V>;
      alignas(64) T acc[static_cast<std::size_t>(size) * W] = {};
      for (int k = 0; k < count; ++k) {
        const detail::lane_indices<V, detail::index_reader> j(get(ix, k), read);
        for (int o = 0; o < s.outer; ++o)
          for (int i = 0; i < s.inner; ++i) {
            const V u = get(a, (o * count + k) * s.inner + i);
            for (std::size_t l = 0; l < W; ++l) {
              const int jl = j.at[j.uniform ? 0 : l];
              if (jl >= 0) acc[static_cast<std::size_t>(s.at(o, jl, i)) * W + l] += detail::lane_of(u, l);
            }
          }
      }
      for (int e = 0; e < size; ++e) {
        if constexpr (std::is_arithmetic_v<V>)
          put(e, acc[e]);
        else
          put(e, V::load_aligned(acc + static_cast<std::size_t>(e) * W));
      }
    }
  }
  static std::string attribute_text(const detail::node& n) { return detail::mode_text(n.attr[0], n.attr[1]); }
};

/// `attr[1]` entries of operand 0 along axis `attr[0]` from the entry operand 1 (a scalar)
/// names, clamped into the tensor.
template <>
struct op_traits<dynamic_slice_op> : detail::index_op_traits {
  static constexpr const char* name = "dynamic_slice";
  static constexpr detail::rule_ids_fn jvp_ids, vjp_ids;
  template <const auto& IR, std::size_t J, class Get, class Put>
  CALX_HOST_DEVICE static CALX_INLINE void statement(const Get& get, const Put& put) {
    constexpr detail::operand_c<IR.operand(J, 0)> a{};
    constexpr detail::axis_geometry big = detail::axis_geometry::of(IR.nodes[IR.operand(J, 0)].dims, IR.nodes[J].attr[0]);
    constexpr int size = IR.nodes[J].attr[1];
    using V = std::remove_cvref_t<decltype(get(a, 0))>;
    const auto b = detail::indices_of(detail::index_operand(get, detail::operand_c<IR.operand(J, 1)>{}, 0),
                                      detail::start_reader{big.n, size});
    for (int o = 0; o < big.outer; ++o)
      for (int k = 0; k < size; ++k)
        for (int i = 0; i < big.inner; ++i) {
          const int to = (o * size + k) * big.inner + i;
          if (b.uniform)
            put(to, V(get(a, big.at(o, b.at[0] + k, i))));
          else
            put(to, detail::from_lanes<V>([&](std::size_t l) { return detail::lane_of(V(get(a, big.at(o, b.at[l] + k, i))), l); }));
        }
  }
  static std::string attribute_text(const detail::node& n) {
    return "[axis=" + std::to_string(n.attr[0]) + ", size=" + std::to_string(n.attr[1]) + "]";
  }
};

/// Operand 0 (`attr[1]` entries along axis `attr[0]`) placed in zeros of the node's shape
/// from the entry operand 1 names, clamped as dynamic_slice clamps it.
template <>
struct op_traits<dynamic_pad_op> : detail::index_op_traits {
  static constexpr const char* name = "dynamic_pad";
  static constexpr detail::rule_ids_fn jvp_ids, vjp_ids;
  template <const auto& IR, std::size_t J, class Get, class Put>
  CALX_HOST_DEVICE static CALX_INLINE void statement(const Get& get, const Put& put) {
    constexpr detail::operand_c<IR.operand(J, 0)> a{};
    constexpr detail::axis_geometry big = detail::axis_geometry::of(IR.nodes[J].dims, IR.nodes[J].attr[0]);
    constexpr int size = IR.nodes[J].attr[1];
    constexpr detail::axis_geometry part{size, big.inner, big.outer};
    using V = std::remove_cvref_t<decltype(get(a, 0))>;
    const auto b = detail::indices_of(detail::index_operand(get, detail::operand_c<IR.operand(J, 1)>{}, 0),
                                      detail::start_reader{big.n, size});
    for (int o = 0; o < big.outer; ++o)
      for (int k = 0; k < big.n; ++k)
        for (int i = 0; i < big.inner; ++i) {
          if (b.uniform) {
            const int r = k - b.at[0];
            put(big.at(o, k, i), r < 0 || r >= size ? detail::zero_of<V>() : V(get(a, part.at(o, r, i))));
          } else {
            put(big.at(o, k, i), detail::from_lanes<V>([&](std::size_t l) {
                  const int r = k - b.at[l];
                  return r < 0 || r >= size ? detail::lane_t<V>(0) : detail::lane_of(V(get(a, part.at(o, r, i))), l);
                }));
          }
        }
  }
  static std::string attribute_text(const detail::node& n) { return op_traits<dynamic_slice_op>::attribute_text(n); }
};

namespace detail {

/// The shape of `x` with axis `axis` replaced by the axes of `idx` (a gather's result), or
/// (`idx` of rank 1 and extent `n`: a scatter's result) by one axis of `n` entries.
constexpr shape axis_replaced(const shape& x, int axis, int x_axes, const shape& idx) {
  shape r{};
  const int rank = x.rank - x_axes + idx.rank;
  if (rank > 4) trace_shape_error("calx: calx::take's result would have more than 4 axes");
  for (int a = 0; a < axis; ++a) r.extent[r.rank++] = x.extent[a];
  for (int a = 0; a < idx.rank; ++a) r.extent[r.rank++] = idx.extent[a];
  for (int a = axis + x_axes; a < x.rank; ++a) r.extent[r.rank++] = x.extent[a];
  return r;
}

/// Entries `idx` of `x` along `axis` (`mode`: see `index_mode`): the result's shape has
/// `idx`'s axes in place of that axis.
constexpr int gather(graph& g, int x, int idx, int axis, int mode) {
  if (x < 0) return -1;
  const shape s = g.nodes[x].dims;
  if (axis < 0 || axis >= s.rank) trace_shape_error("calx: calx::take along an axis the tensor does not have");
  const int in[2] = {x, idx};
  return emit_tensor(g, ref_of<gather_op>(), in, 2, {axis, mode}, axis_replaced(s, axis, 1, g.nodes[idx].dims));
}

/// The transpose of a gather: `u`, whose axes from `axis` on are `idx`'s, added into a
/// tensor of zeros with `n` entries along `axis`, entry k of `u` at entry idx[k].
constexpr int scatter_add(graph& g, int u, int idx, int axis, int n, int mode) {
  if (u < 0) return -1;
  shape one{};
  one.rank = 1;
  one.extent[0] = n;
  const shape r = axis_replaced(g.nodes[u].dims, axis, g.nodes[idx].dims.rank, one);
  const int in[2] = {u, idx};
  return emit_tensor(g, ref_of<scatter_add_op>(), in, 2, {axis, mode}, r);
}

/// `size` entries of `x` along `axis` from entry `start` (a scalar node), clamped so that
/// they lie in the tensor.
constexpr int dynamic_slice(graph& g, int x, int start, int axis, int size) {
  if (x < 0) return -1;
  shape r = g.nodes[x].dims;
  if (axis < 0 || axis >= r.rank || size < 1 || size > r.extent[axis])
    trace_shape_error("calx: a dynamic_slice larger than the tensor's axis");
  if (size == r.extent[axis]) return x;  // the start clamps to 0
  r.extent[axis] = size;
  const int in[2] = {x, start};
  return emit_tensor(g, ref_of<dynamic_slice_op>(), in, 2, {axis, size}, r);
}

/// `u` placed from entry `start` along `axis` of a tensor of zeros of shape `to`, the start
/// clamped as dynamic_slice clamps it: its transpose.
constexpr int dynamic_pad(graph& g, int u, int start, shape to, int axis) {
  if (u < 0) return -1;
  if (g.nodes[u].dims == to) return u;
  const int in[2] = {u, start};
  return emit_tensor(g, ref_of<dynamic_pad_op>(), in, 2, {axis, g.nodes[u].dims.extent[axis]}, to);
}

}  // namespace detail

// ---- rules ------------------------------------------------------------------------------
// Linear in the tensor, with the indices fixed: the tangent goes through the same op, the
// cotangent through its transpose; the indices have neither.

constexpr void op_traits<gather_op>::jvp_ids(detail::graph& g, const int* y, const int* x, const int* t, int* out) {
  out[0] = detail::gather(g, t[0], x[1], g.nodes[y[0]].attr[0], g.nodes[y[0]].attr[1]);
}
constexpr void op_traits<gather_op>::vjp_ids(detail::graph& g, const int* ct, const int* y, const int* x, int* out) {
  const int axis = g.nodes[y[0]].attr[0];
  out[0] = detail::scatter_add(g, ct[0], x[1], axis, g.nodes[x[0]].dims.extent[axis], g.nodes[y[0]].attr[1]);
  out[1] = -1;
}
constexpr void op_traits<scatter_add_op>::jvp_ids(detail::graph& g, const int* y, const int* x, const int* t, int* out) {
  const int axis = g.nodes[y[0]].attr[0];
  out[0] = detail::scatter_add(g, t[0], x[1], axis, g.nodes[y[0]].dims.extent[axis], g.nodes[y[0]].attr[1]);
}
constexpr void op_traits<scatter_add_op>::vjp_ids(detail::graph& g, const int* ct, const int* y, const int* x, int* out) {
  out[0] = detail::gather(g, ct[0], x[1], g.nodes[y[0]].attr[0], g.nodes[y[0]].attr[1]);
  out[1] = -1;
}
constexpr void op_traits<dynamic_slice_op>::jvp_ids(detail::graph& g, const int* y, const int* x, const int* t, int* out) {
  out[0] = detail::dynamic_slice(g, t[0], x[1], g.nodes[y[0]].attr[0], g.nodes[y[0]].attr[1]);
}
constexpr void op_traits<dynamic_slice_op>::vjp_ids(detail::graph& g, const int* ct, const int* y, const int* x, int* out) {
  out[0] = detail::dynamic_pad(g, ct[0], x[1], g.nodes[x[0]].dims, g.nodes[y[0]].attr[0]);
  out[1] = -1;
}
constexpr void op_traits<dynamic_pad_op>::jvp_ids(detail::graph& g, const int* y, const int* x, const int* t, int* out) {
  out[0] = detail::dynamic_pad(g, t[0], x[1], g.nodes[y[0]].dims, g.nodes[y[0]].attr[0]);
}
constexpr void op_traits<dynamic_pad_op>::vjp_ids(detail::graph& g, const int* ct, const int* y, const int* x, int* out) {
  out[0] = detail::dynamic_slice(g, ct[0], x[1], g.nodes[y[0]].attr[0], g.nodes[y[0]].attr[1]);
  out[1] = -1;
}

CALX_END_NAMESPACE

#endif  // CALX_DETAIL_TENSOR_INDEX_OPS_HPP
