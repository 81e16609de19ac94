/// @file detail/tensor/contraction.hpp
/// @brief How a contraction (the `tensordot` op: dot, matvec, matmul, outer and the
/// transposed forms reverse mode needs) is computed: its layouts and loop bounds, the plain
/// loop every backend can run, and, for numbers in memory on the host, xsimd kernels that
/// read every operand along its rows.
///
/// The plain loop walks `sum_r a(p, r) b(r, q)` element by element; at -O2 the compiler
/// vectorises none of it (a dot product is a reduction it may not reorder, and an axpy into
/// memory it cannot prove unaliased), and the `transpose_a` form reads A down its columns.
/// The kernels are what a careful hand-written loop does: dot products with independent
/// accumulators, four rows at a time sharing the vector's loads; row-times-matrix products
/// and A^T x as axpys of contiguous rows into registers. Sums along r may be grouped
/// differently from the plain loop's (dot products); row-times-matrix products and A^T x
/// keep the order of r.
#ifndef CALX_DETAIL_TENSOR_CONTRACTION_HPP
#define CALX_DETAIL_TENSOR_CONTRACTION_HPP

#include <calx/detail/internal_header_check.hpp>

#include <calx/config.hpp>
#include <calx/detail/ir/shape.hpp>

#include <xsimd/xsimd.hpp>

#include <type_traits>

CALX_BEGIN_NAMESPACE
namespace detail {

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

/// Where element (p, r) of a and (r, q) of b are, in the layouts of contraction `K`.
template <int K, contraction_loops L>
struct contraction_layout {
  static constexpr int a(int p, int r) { return K == contraction::atb ? r * L.rows + p : p * L.inner + r; }
  static constexpr int b(int r, int q) { return K == contraction::abt ? q * L.inner + r : r * L.cols + q; }
};

/// The loop of contraction `K` with bounds `L` (`loops_of`): `put(p * cols + q, v)` with `v`
/// the sum over r of `get_a(element (p, r) of a) * get_b(element (r, q) of b)`, in their
/// layouts (see `contraction`). The bounds are template arguments so that the generated
/// loops have constant trip counts and strides (as runtime arguments, the least-squares
/// gradient ran 1.8x slower). The loop for every backend and value type (SIMD lanes of
/// samples, device code); numbers in memory on the host take `contract_in_memory`.
template <int K, contraction_loops L, class GetA, class GetB, class Put>
CALX_HOST_DEVICE constexpr CALX_INLINE void contract_loop(const GetA& get_a, const GetB& get_b, const Put& put) {
  using at = contraction_layout<K, L>;
  // Four rows at a time where there is a sum: four independent chains of multiply-adds
  // instead of one that waits on each (a per-sample matvec in SIMD lanes ran latency-bound).
  // Each sum keeps the order of r. The bounds are constants (a running p made g++ warn of
  // an overflow in the rest's loop, which never runs).
  constexpr int blocked = L.inner > 1 ? L.rows / 4 * 4 : 0;
  for (int p = 0; p < blocked; p += 4)
    for (int q = 0; q < L.cols; ++q) {
      const auto b0 = get_b(at::b(0, q));
      auto s0 = get_a(at::a(p, 0)) * b0, s1 = get_a(at::a(p + 1, 0)) * b0;
      auto s2 = get_a(at::a(p + 2, 0)) * b0, s3 = get_a(at::a(p + 3, 0)) * b0;
      for (int r = 1; r < L.inner; ++r) {
        const auto br = get_b(at::b(r, q));
        s0 += get_a(at::a(p, r)) * br;
        s1 += get_a(at::a(p + 1, r)) * br;
        s2 += get_a(at::a(p + 2, r)) * br;
        s3 += get_a(at::a(p + 3, r)) * br;
      }
      put(p * L.cols + q, s0);
      put((p + 1) * L.cols + q, s1);
      put((p + 2) * L.cols + q, s2);
      put((p + 3) * L.cols + q, s3);
    }
  for (int p = blocked; p < L.rows; ++p)
    for (int q = 0; q < L.cols; ++q) {
      auto acc = get_a(at::a(p, 0)) * get_b(at::b(0, q));
      for (int r = 1; r < L.inner; ++r) acc += get_a(at::a(p, r)) * get_b(at::b(r, q));
      put(p * L.cols + q, acc);
    }
}

#ifndef __CUDA_ARCH__
/// The dot product of `n` consecutive elements of x and y: two accumulators of W lanes,
/// the tail one by one.
template <int N, class T>
CALX_INLINE T dot_kernel(const T* x, const T* y) {
  using B = xsimd::batch<T>;
  constexpr int W = static_cast<int>(B::size);
  B s0(T(0)), s1(T(0));
  int r = 0;
  for (; r + 2 * W <= N; r += 2 * W) {
    s0 = xsimd::fma(B::load_unaligned(x + r), B::load_unaligned(y + r), s0);
    s1 = xsimd::fma(B::load_unaligned(x + r + W), B::load_unaligned(y + r + W), s1);
  }
  for (; r + W <= N; r += W) s0 = xsimd::fma(B::load_unaligned(x + r), B::load_unaligned(y + r), s0);
  T s = N >= W ? xsimd::hadd(s0 + s1) : T(0);
  for (; r < N; ++r) s += x[r] * y[r];
  return s;
}

/// out[p] = sum_r a[p, r] x[r] for P rows of R: four rows at a time share each load of x.
template <int P, int R, class T>
CALX_INLINE void rows_dot_kernel(const T* a, const T* x, T* out) {
  using B = xsimd::batch<T>;
  constexpr int W = static_cast<int>(B::size);
  constexpr int blocked = R >= W ? P / 4 * 4 : 0;  // constant bounds: g++ then sees every index in range
  for (int p = 0; p < blocked; p += 4) {
    B s0(T(0)), s1(T(0)), s2(T(0)), s3(T(0));
    int r = 0;
    for (; r + W <= R; r += W) {
      const B v = B::load_unaligned(x + r);
      s0 = xsimd::fma(B::load_unaligned(a + p * R + r), v, s0);
      s1 = xsimd::fma(B::load_unaligned(a + (p + 1) * R + r), v, s1);
      s2 = xsimd::fma(B::load_unaligned(a + (p + 2) * R + r), v, s2);
      s3 = xsimd::fma(B::load_unaligned(a + (p + 3) * R + r), v, s3);
    }
    T t0 = xsimd::hadd(s0), t1 = xsimd::hadd(s1), t2 = xsimd::hadd(s2), t3 = xsimd::hadd(s3);
    for (; r < R; ++r) {
      t0 += a[p * R + r] * x[r];
      t1 += a[(p + 1) * R + r] * x[r];
      t2 += a[(p + 2) * R + r] * x[r];
      t3 += a[(p + 3) * R + r] * x[r];
    }
    out[p] = t0;
    out[p + 1] = t1;
    out[p + 2] = t2;
    out[p + 3] = t3;
  }
  for (int p = blocked; p < P; ++p) out[p] = dot_kernel<R>(a + p * R, x);
}

/// out[p, q] = sum_r a(p, r) b[r, q] for rows of b contiguous along q (Q columns): each
/// output row is a sum of b's rows scaled by a(p, r), kept in four registers per block of
/// 4 W columns, r in order. `A(p, r)` is a's element's index.
template <int P, int Q, int R, class At, class T>
CALX_INLINE void rows_axpy_kernel(const T* a, const T* b, T* out) {
  using B = xsimd::batch<T>;
  constexpr int W = static_cast<int>(B::size);
  for (int p = 0; p < P; ++p) {
    T* o = out + p * Q;
    int q = 0;
    for (; q + 4 * W <= Q; q += 4 * W) {
      B s0(T(0)), s1(T(0)), s2(T(0)), s3(T(0));
      for (int r = 0; r < R; ++r) {
        const B c(a[At::a(p, r)]);
        const T* row = b + r * Q + q;
        s0 = xsimd::fma(c, B::load_unaligned(row), s0);
        s1 = xsimd::fma(c, B::load_unaligned(row + W), s1);
        s2 = xsimd::fma(c, B::load_unaligned(row + 2 * W), s2);
        s3 = xsimd::fma(c, B::load_unaligned(row + 3 * W), s3);
      }
      s0.store_unaligned(o + q);
      s1.store_unaligned(o + q + W);
      s2.store_unaligned(o + q + 2 * W);
      s3.store_unaligned(o + q + 3 * W);
    }
    for (; q + W <= Q; q += W) {
      B s(T(0));
      for (int r = 0; r < R; ++r) s = xsimd::fma(B(a[At::a(p, r)]), B::load_unaligned(b + r * Q + q), s);
      s.store_unaligned(o + q);
    }
    for (; q < Q; ++q) {
      T s = a[At::a(p, 0)] * b[q];
      for (int r = 1; r < R; ++r) s += a[At::a(p, r)] * b[r * Q + q];
      o[q] = s;
    }
  }
}
#endif

/// Contraction `K` with bounds `L` of numbers in memory: `a` and `b` in their layouts,
/// the result row major in `out` (which overlaps neither). On the host, float and double
/// take the kernels above; device code, constant evaluation and other types, the plain loop.
template <int K, contraction_loops L, class T>
CALX_HOST_DEVICE constexpr CALX_INLINE void contract_in_memory(const T* a, const T* b, T* out) {
#ifndef __CUDA_ARCH__
  if constexpr (std::is_floating_point_v<T>) {
    if (!std::is_constant_evaluated()) {
      using at = contraction_layout<K, L>;
      constexpr int P = L.rows, Q = L.cols, R = L.inner;
      if constexpr (R > 1 && Q == 1 && K != contraction::atb) {
        rows_dot_kernel<P, R>(a, b, out);  // a's rows times a vector (b's one column or one row)
      } else if constexpr (R > 1 && K == contraction::abt) {
        for (int p = 0; p < P; ++p)
          for (int q = 0; q < Q; ++q) out[p * Q + q] = dot_kernel<R>(a + p * R, b + q * R);
      } else if constexpr (K == contraction::atb && Q == 1) {
        // A^T x: x's elements scale A's rows, summed into the result along p.
        struct transposed {
          static constexpr int a(int, int r) { return r; }
        };
        rows_axpy_kernel<1, P, R, transposed>(b, a, out);
      } else {
        rows_axpy_kernel<P, Q, R, at>(a, b, out);  // b's rows (or b itself, R = 1) scaled by a's elements
      }
      return;
    }
  }
#endif
  contract_loop<K, L>([&](int e) { return a[e]; }, [&](int e) { return b[e]; }, [&](int e, T v) { out[e] = v; });
}

}  // namespace detail
CALX_END_NAMESPACE

#endif  // CALX_DETAIL_TENSOR_CONTRACTION_HPP
