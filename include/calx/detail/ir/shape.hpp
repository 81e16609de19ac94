/// @file detail/ir/shape.hpp
/// @brief A node's static shape (rank <= 4, row major) and NumPy's broadcasting rule on
/// shapes, used while tracing (constexpr) and by the tensor type's compile-time checks.
#ifndef CALX_DETAIL_IR_SHAPE_HPP
#define CALX_DETAIL_IR_SHAPE_HPP

#include <calx/detail/internal_header_check.hpp>

#include <calx/config.hpp>

#include <array>
#include <cstdint>

CALX_BEGIN_NAMESPACE
namespace detail {

inline constexpr int max_rank = 4;

/// Not constexpr on purpose: reaching it while tracing is a compile error naming the call.
inline void trace_shape_error(const char*) {}

/// The shape of a value: `rank` dimensions `extent[0 .. rank)`; rank 0 is a scalar.
struct shape {
  std::int32_t rank = 0;
  std::array<std::int32_t, max_rank> extent{};

  /// The number of elements.
  constexpr int size() const {
    int n = 1;
    for (int a = 0; a < rank; ++a) n *= extent[a];
    return n;
  }
  /// The row-major stride of axis `a`.
  constexpr int stride(int a) const {
    int s = 1;
    for (int b = a + 1; b < rank; ++b) s *= extent[b];
    return s;
  }
  /// Extent of axis `a`.
  constexpr int operator[](int a) const { return extent[a]; }
  constexpr bool operator==(const shape&) const = default;
};

constexpr shape scalar_shape() { return {}; }

/// The shape NumPy broadcasting gives `a` and `b` (trailing axes aligned, 1 stretches), and
/// whether they are compatible.
struct broadcast_result {
  shape s;
  bool ok = true;
};
constexpr broadcast_result broadcast_shapes(const shape& a, const shape& b) {
  broadcast_result r;
  r.s.rank = a.rank > b.rank ? a.rank : b.rank;
  for (int k = 0; k < r.s.rank; ++k) {  // k counts from the last axis
    const int da = k < a.rank ? a.extent[a.rank - 1 - k] : 1, db = k < b.rank ? b.extent[b.rank - 1 - k] : 1;
    if (da != db && da != 1 && db != 1) r.ok = false;
    r.s.extent[r.s.rank - 1 - k] = da == 1 ? db : da;
  }
  return r;
}

/// The flat index in `from` (broadcast to `to`) of the element at flat index `e` of `to`.
constexpr int broadcast_source_index(const shape& from, const shape& to, int e) {
  int src = 0;
  for (int k = 0; k < from.rank; ++k) {
    const int a = to.rank - from.rank + k;  // the axis of `to` that axis k of `from` lines up with
    const int coord = (e / to.stride(a)) % to.extent[a];
    if (from.extent[k] != 1) src += coord * from.stride(k);
  }
  return src;
}

/// Where entry `k` along the axis of a tensor of shape `s` lies: `outer` blocks of `n`
/// entries of `inner` elements; element (o, k, i) is at (o * n + k) * inner + i. The tensor
/// ops' statements (slices, pads, reductions) and fusion's shifts (`shifted_run`) read it.
struct axis_geometry {
  int n = 1, inner = 1, outer = 1;
  CALX_HOST_DEVICE static constexpr axis_geometry of(const shape& s, int axis) {
    const int n = s.extent[axis], inner = s.stride(axis);
    return {n, inner, s.size() / (n * inner)};
  }
  CALX_HOST_DEVICE constexpr int at(int o, int k, int i) const { return (o * n + k) * inner + i; }
};

/// Which axes a `tensordot` node contracts (its attribute `attr[0]`). With a of shape [P.., R] or
/// [R, P..] and b of shape [R, Q..] or [Q.., R] (ranks 1 or 2), the result is [P.., Q..]:
/// `sum_r a(p, r) b(r, q)` read in the layouts below. The transposed forms are what reverse
/// mode needs, so no transpose is materialised. (Here, below the IR, because fusion reads
/// it: detail/ir/ir.hpp, `streamed_contraction`.)
struct contraction {
  static constexpr int outer = 0;  ///< vectors: a[p] b[q]
  static constexpr int ab = 1;     ///< a[p, r] b[r, q]: dot, matvec, vecmat, matmul
  static constexpr int atb = 2;    ///< a[r, p] b[r, q]: a transposed (a matrix)
  static constexpr int abt = 3;    ///< a[p, r] b[q, r]: b transposed (a matrix)
};

/// A reduction of a tensor of shape `s` over `axis` (-1: every axis), as a loop: result
/// element `o` is `put(o, v)` with `v` the fold of `combine` over the reduced elements,
/// read by `get(e)` in order. One loop for tensors of numbers and for every backend's code.
template <class Get, class Put, class Combine>
CALX_HOST_DEVICE constexpr CALX_INLINE void reduce_loop(const shape& s, int axis, const Get& get, const Put& put,
                                                        const Combine& combine) {
  const axis_geometry g = axis < 0 ? axis_geometry{s.size(), 1, 1} : axis_geometry::of(s, axis);
  for (int o = 0; o < g.outer; ++o)
    for (int i = 0; i < g.inner; ++i) {
      auto acc = get(g.at(o, 0, i));
      for (int k = 1; k < g.n; ++k) acc = combine(acc, get(g.at(o, k, i)));
      put(o * g.inner + i, acc);
    }
}

}  // namespace detail
CALX_END_NAMESPACE

#endif // CALX_DETAIL_IR_SHAPE_HPP
