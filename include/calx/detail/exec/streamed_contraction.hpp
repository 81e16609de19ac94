/// @file detail/exec/streamed_contraction.hpp
/// @brief A streamed contraction in straight-line code (`streamed_contraction`,
/// detail/ir/ir.hpp): `A^T v` with v, an elementwise function of `A x`, fused into it, run as
/// one pass over A's rows. Each block of four rows gives its dot products with x (the chain's
/// `A x` nodes, `row_dots`), v's elements from them (`fused_operand` through a getter that
/// hands the chain those dot products, `row_dot_values`), and is added into the result while
/// in L1; two contractions read A twice. The least-squares gradient at 1024 x 1024 went from
/// 1.8-1.9x the best hand code to 0.8-1.1x (docs/performance.md §6).
#ifndef CALX_DETAIL_EXEC_STREAMED_CONTRACTION_HPP
#define CALX_DETAIL_EXEC_STREAMED_CONTRACTION_HPP

#include <calx/detail/internal_header_check.hpp>

#include <calx/detail/exec/fusion.hpp>
#include <calx/detail/ir/ir.hpp>
#include <calx/detail/tensor/contraction.hpp>

#include <xsimd/xsimd.hpp>

#include <array>
#include <cstddef>
#include <type_traits>
#include <utility>
#include <vector>

CALX_BEGIN_NAMESPACE
namespace detail {

/// The `row_dots` nodes (A x) inside the fused chain of streamed contraction J's vector v
/// (`streamed_contraction`), through elementwise ops, the first `max` of them: the stream
/// computes their elements of a row once (v may read one twice: 2 (A x - b) does), and v's
/// chain reads them (`row_dot_values`). Others compute their dot product where they are
/// read.
struct row_dot_nodes {
  static constexpr int max = 4;
  int n = 0;
  std::array<int, max> id{};
  constexpr int slot_of(int j) const {
    for (int k = 0; k < n; ++k)
      if (id[static_cast<std::size_t>(k)] == j) return k;
    return -1;
  }
};
template <class IR>
constexpr row_dot_nodes streamed_row_dots(const IR& r, const std::array<fused_role, IR::size>& role, std::size_t j) {
  row_dot_nodes rows;
  std::vector<char> seen(IR::size, 0);
  std::vector<int> stack{r.operand(j, 1)};
  while (!stack.empty()) {
    const std::size_t k = static_cast<std::size_t>(stack.back());
    stack.pop_back();
    if (seen[k] || role[k] != fused_role::inside) continue;
    seen[k] = 1;
    if (row_dots(r, k)) {
      if (rows.n < row_dot_nodes::max) rows.id[static_cast<std::size_t>(rows.n++)] = static_cast<int>(k);
      continue;
    }
    // Through elementwise ops only: v's element r reads their element r (`fusion_inside`).
    if (fusable_elementwise(r, k))
      for (int i = 0; i < r.nodes[k].arity; ++i) stack.push_back(r.operand(k, i));
  }
  return rows;
}
template <const auto& IR, std::size_t J>
inline constexpr row_dot_nodes row_dots_of = streamed_row_dots(IR, fusion_of<IR>, J);

/// `get` with one row's elements of the `Rows` nodes given (`value[k]` is node
/// `Rows.id[k]`'s), which `fused_value` reads instead of computing their dot products.
template <class Get, class T, const row_dot_nodes& Rows>
struct row_dot_values {
  const Get& get;
  T value[row_dot_nodes::max];
  static constexpr int slot_of(int j) { return Rows.slot_of(j); }
  template <int A>
  CALX_INLINE decltype(auto) operator()(operand_c<A> a, int e) const {
    return get(a, e);
  }
};

#ifndef __CUDA_ARCH__
/// out = sum_r v[r] A_r for the R rows of A (P numbers each, row major), four rows at a
/// time: `values(rows, r, v)` writes v[r .. r + rows) (reading those rows: they come from
/// memory once), then the rows are added into out in SIMD batches while they are in L1, r
/// in order. Where A fits in L1, v first and then A^T v as the contraction kernel runs it.
template <int R, int P, class T, class Values>
CALX_INLINE void streamed_rows_kernel(const T* a, T* __restrict out, const Values& values) {
  using B = xsimd::batch<T>;
  constexpr int W = static_cast<int>(B::size), full = P / W * W, blocked = R / 4 * 4;
  if constexpr (P >= 4 * W && static_cast<std::size_t>(R) * P * sizeof(T) <= 32768) {
    // A fits in L1 and its rows fill the A^T v kernel's register blocks of 4 W columns:
    // v first, then that kernel, which keeps the result in registers (48 x 48 in f64: 246
    // ns one pass, 214 so).
    struct v_first {
      static constexpr int a(int, int r) { return r; }
    };
    T v[R];
    for (int r = 0; r < blocked; r += 4) values(std::integral_constant<int, 4>{}, r, v + r);
    for (int r = blocked; r < R; ++r) values(std::integral_constant<int, 1>{}, r, v + r);
    rows_axpy_kernel<1, P, R, v_first>(v, a, out);
    return;
  }
  for (int p = 0; p < P; ++p) out[p] = T(0);
  for (int r = 0; r < blocked; r += 4) {
    T v[4];
    values(std::integral_constant<int, 4>{}, r, v);
    const T* row = a + r * P;
    const B c0(v[0]), c1(v[1]), c2(v[2]), c3(v[3]);
    for (int p = 0; p < full; p += W) {
      B o = B::load_unaligned(out + p);
      o = xsimd::fma(B::load_unaligned(row + p), c0, o);
      o = xsimd::fma(B::load_unaligned(row + P + p), c1, o);
      o = xsimd::fma(B::load_unaligned(row + 2 * P + p), c2, o);
      o = xsimd::fma(B::load_unaligned(row + 3 * P + p), c3, o);
      o.store_unaligned(out + p);
    }
    for (int p = full; p < P; ++p)
      out[p] = (((out[p] + row[p] * v[0]) + row[P + p] * v[1]) + row[2 * P + p] * v[2]) + row[3 * P + p] * v[3];
  }
  for (int r = blocked; r < R; ++r) {
    T v[1];
    values(std::integral_constant<int, 1>{}, r, v);
    const T* row = a + r * P;
    for (int p = 0; p < full; p += W)
      xsimd::fma(B::load_unaligned(row + p), B(v[0]), B::load_unaligned(out + p)).store_unaligned(out + p);
    for (int p = full; p < P; ++p) out[p] += row[p] * v[0];
  }
}

/// A streamed contraction J on numbers in memory, out of line (one function per node): for
/// each block of rows, the chain's `row_dots` nodes as dot products of the rows (four at a
/// time sharing each load of x), then v's elements from them.
template <const auto& IR, std::size_t J, class T, class Get>
[[gnu::noinline]] void streamed_contraction_call(const Get& get, T* __restrict out) {
  constexpr int MA = IR.operand(J, 0), VA = IR.operand(J, 1), R = IR.nodes[static_cast<std::size_t>(MA)].dims.extent[0],
                P = IR.nodes[static_cast<std::size_t>(MA)].dims.extent[1];
  with_own_inputs<IR>(get, [out](const Get& own) CALX_INLINE_LAMBDA {
    const T* a = &own(operand_c<MA>{}, 0);
    row_dot_values<Get, T, row_dots_of<IR, J>> g{own, {}};
    streamed_rows_kernel<R, P, T>(a, out, [&]<int N>(std::integral_constant<int, N>, int r, T* v) CALX_INLINE_LAMBDA {
      T dots[row_dot_nodes::max][N];
      [&]<std::size_t... K>(std::index_sequence<K...>) CALX_INLINE_LAMBDA {
        // Node K's x: its operand 1.
        (rows_dot_kernel<N, P>(a + r * P, &own(operand_c<IR.operand(static_cast<std::size_t>(row_dots_of<IR, J>.id[K]), 1)>{}, 0),
                               dots[K]),
         ...);
      }(std::make_index_sequence<static_cast<std::size_t>(row_dots_of<IR, J>.n)>{});
      for (int i = 0; i < N; ++i) {
        for (int k = 0; k < row_dots_of<IR, J>.n; ++k) g.value[k] = dots[k][i];
        v[i] = fused_operand<IR, VA, T, 0, R>(g, r + i);
      }
    });
  });
}
#endif

/// A^T v with v fused (`streamed_contraction`): row r of A gives v[r], computed here, and
/// adds v[r] times itself into the result; A is read once, row by row.
template <const auto& IR, std::size_t J, class T, class Get>
CALX_HOST_DEVICE CALX_INLINE void streamed_contraction_statement(const Get& get, T* out) {
  constexpr int MA = IR.operand(J, 0), VA = IR.operand(J, 1);
  constexpr shape a = IR.nodes[static_cast<std::size_t>(MA)].dims;  // a constant: device code may not read IR
  constexpr int R = a.extent[0], P = a.extent[1];
#ifndef __CUDA_ARCH__
  if constexpr (std::is_floating_point_v<T> && std::is_lvalue_reference_v<decltype(get(operand_c<MA>{}, 0))>) {
    streamed_contraction_call<IR, J, T>(get, out);
    return;
  }
#endif
  for (int p = 0; p < P; ++p) out[p] = T(0);
  for (int r = 0; r < R; ++r) {
    const T v = fused_operand<IR, VA, T, 0, R>(get, r);
    for (int p = 0; p < P; ++p) out[p] += get(operand_c<MA>{}, r * P + p) * v;
  }
}

}  // namespace detail
CALX_END_NAMESPACE

#endif  // CALX_DETAIL_EXEC_STREAMED_CONTRACTION_HPP
