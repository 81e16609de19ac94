/// @file detail/exec/fusion.hpp
/// @brief Fusion of elementwise chains in straight-line code over tensors of numbers (32
/// elements or more): a built-in elementwise op whose only reader is another elementwise op
/// of its size or a sum, max or min (of every element or over one axis; comparisons, masks
/// and `where` included: a mask is a `batch_bool`), a reduction over one axis read so, a
/// slice or pad that shifts the flat index (one run along a leading axis) or a reshape read
/// by such ops, and a broadcast (of a number or of a tensor in memory) read only by such
/// ops, are not written out; the op that reads them computes them in its own loop, element
/// by element (xsimd batches of elements on the host), from the values they read.
/// `exp(x - max(x)) * 2` is then one loop that reads x once and writes one tensor, where
/// node by node it was five loops and five tensors; `concatenate(x[:1], x[1:] * y[:-1])`
/// one loop where it was six; kmeans' `sum(min(sum(d * d, axis<2>), axis<1>))` of a
/// difference of broadcasts one loop that writes no tensor. The IR keeps one node per op
/// (its printed text, its passes); fusion is codegen only.
///
/// Which nodes fuse is decided with the registers (`fusion_inside`, `allocate_slots`,
/// detail/ir/ir.hpp): a fused node gets none, and what it reads keeps its register until
/// the loop that computes it has run. This header computes fused values and runs their
/// loops; the statement codegen emits is `fused_statement` (detail/exec/fused_statement.hpp),
/// and a streamed contraction's pass is detail/exec/streamed_contraction.hpp.
#ifndef CALX_DETAIL_EXEC_FUSION_HPP
#define CALX_DETAIL_EXEC_FUSION_HPP

#include <calx/detail/internal_header_check.hpp>

#include <calx/detail/exec/node_kernel.hpp>
#include <calx/detail/ir/graph.hpp>
#include <calx/detail/ir/ir.hpp>
#include <calx/detail/tensor/contraction.hpp>
#include <calx/detail/tensor/elementwise_batches.hpp>
#include <calx/detail/tensor/ir_ops.hpp>

#include <xsimd/xsimd.hpp>

#include <algorithm>
#include <array>
#include <cstddef>
#include <limits>
#include <type_traits>
#include <utility>
#include <vector>

CALX_BEGIN_NAMESPACE
namespace detail {

/// What fusion makes of a node: run as it is, computed inside its readers' loops, a loop
/// that computes fused operands, or a reduction of every element that its operand's loop
/// folds (`loop_folds`).
enum class fused_role : unsigned char { alone, inside, loop, folded };

/// Each node's `fused_role` in straight-line code of program `r`, as `allocate_slots` laid
/// out its registers: it gave every node a register but the fused ones (`fusion_inside`),
/// which are read back here rather than worked out again. Backends with registers of their
/// own (the SIMD executor, the device loop) fuse nothing: they take `plain_statement_of`.
/// `folds`: the reductions loops fold (`loop_fold_of`).
template <class IR>
constexpr std::array<fused_role, IR::size> fusion_plan(const IR& r, const std::array<int, IR::size>& folds) {
  std::array<fused_role, IR::size> role{};
  for (auto& x : role) x = fused_role::alone;
  if (r.real_slots == 0) return role;  // no straight-line registers: nothing fused
  const std::array<bool, IR::size> inside = fused_inside(r);
  for (std::size_t j = 0; j < IR::size; ++j)
    if (inside[j]) {
      role[j] = fused_role::inside;
    } else {
      for (int i = 0; i < r.nodes[j].arity; ++i)
        if (inside[static_cast<std::size_t>(r.operand(j, i))]) role[j] = fused_role::loop;
      // A reduction over one axis of a value in memory: the fused loop folds it in SIMD
      // batches (`fused_value`), where its own statement folds one number at a time.
      if (axis_reduction(r, j)) role[j] = fused_role::loop;
    }
  for (int f : folds)
    if (f >= 0) role[static_cast<std::size_t>(f)] = fused_role::folded;
  return role;
}

/// For each node, the reduction its loop folds (`loop_folds`), or -1.
template <const auto& IR>
inline constexpr auto loop_fold_of = loop_folds(IR, fused_inside(IR));

template <const auto& IR>
inline constexpr auto fusion_of = fusion_plan(IR, loop_fold_of<IR>);

/// Where the pads inside loop J (`shifted_run`) start and end, as J's elements: between
/// two neighbouring cuts each pad is all inside its run or all outside it, which the loop's
/// code for that segment knows at compile time (no test per element). `at[0 .. n)` are the
/// cuts, 0 and J's size included; a loop with more than `max` of them runs as one segment
/// (its pads test each element).
struct loop_cuts {
  static constexpr int max = 34;
  int n = 0;
  std::array<int, max> at{};
};

template <class IR>
constexpr loop_cuts pad_cuts(const IR& r, const std::array<fused_role, IR::size>& role, std::size_t j) {
  const int size = r.nodes[j].size();
  std::vector<int> cuts{0, size};
  // Element e of j is element e + d of node k.
  auto visit = [&](auto& self, std::size_t k, int d) -> void {
    const int code = r.nodes[k].op().builtin;
    // A broadcast, a reduction or a slice or pad along a later axis reads its operand's
    // elements by indices of their own (its pads test their runs as they go).
    if (code == builtin_code::broadcast_in_dim || fusable_reduction(r, k) || blocked_shift(r, k)) return;
    const std::pair<int, int> run = shifted_run(r, k);
    if (code == builtin_code::pad) {
      cuts.push_back(std::clamp(run.first - d, 0, size));
      cuts.push_back(std::clamp(run.second - d, 0, size));
    }
    const int shift = code == builtin_code::slice ? run.first : code == builtin_code::pad ? -run.first : 0;
    for (int i = 0; i < r.nodes[k].arity; ++i) {
      const std::size_t a = static_cast<std::size_t>(r.operand(k, i));
      if (role[a] == fused_role::inside) self(self, a, d + shift);
    }
  };
  visit(visit, j, 0);
  std::sort(cuts.begin(), cuts.end());
  cuts.erase(std::unique(cuts.begin(), cuts.end()), cuts.end());
  loop_cuts c;
  if (cuts.size() > static_cast<std::size_t>(loop_cuts::max)) cuts = {0, size};
  c.n = static_cast<int>(cuts.size());
  for (std::size_t i = 0; i < cuts.size(); ++i) c.at[i] = cuts[i];
  return c;
}

template <const auto& IR, std::size_t J>
inline constexpr loop_cuts cuts_of = pad_cuts(IR, fusion_of<IR>, J);

/// What `fused_value` gives for node J on values of type V: V, or a mask for a mask (a
/// comparison's result, `where`'s predicate): bool, or the batch's `batch_bool`.
template <const auto& IR, std::size_t J, class V>
using fused_t = std::conditional_t<IR.nodes[J].kind == value_kind::boolean, mask_t<V>, V>;

/// Element(s) e of node J, a fused node or a loop, as a value of type V (a number, or an
/// xsimd batch of W consecutive elements): its fused operands computed here, the others read
/// from their registers or the inputs. Every element read lies in J's elements [Lo, Hi),
/// which tells a pad whether they are in its run; e is a multiple of M, which tells SIMD
/// batches that they do not straddle a run of a broadcast or a reduction.
template <const auto& IR, std::size_t J, class V, int Lo, int Hi, int M, class Get>
CALX_HOST_DEVICE CALX_INLINE fused_t<IR, J, V> fused_value(const Get& get, int e);

/// Whether node a of `r` is a constant number (one real value, known to the code).
template <class IR>
constexpr bool constant_number(const IR& r, int a) {
  const node& n = r.nodes[static_cast<std::size_t>(a)];
  return n.op().builtin == builtin_code::constant && n.kind == value_kind::real && n.size() == 1;
}

template <const auto& IR, int A, class V, int Lo, int Hi, int M = 1, class Get>
CALX_HOST_DEVICE CALX_INLINE fused_t<IR, static_cast<std::size_t>(A), V> fused_operand(const Get& get, int e) {
  using R = fused_t<IR, static_cast<std::size_t>(A), V>;
  if constexpr (fusion_of<IR>[static_cast<std::size_t>(A)] == fused_role::inside)
    return fused_value<IR, static_cast<std::size_t>(A), V, Lo, Hi, M>(get, e);
  else if constexpr (constant_number(IR, A)) {
    // A constant of the code, not its register (which a store through the loop's result
    // might change, for all g++ knows: it loaded and broadcast it again every batch).
    constexpr double c = IR.nodes[static_cast<std::size_t>(A)].value;  // device code may not read IR
    return R(static_cast<lane_t<R>>(c));
  } else if constexpr (std::is_same_v<R, std::remove_cvref_t<decltype(get(operand_c<A>{}, e))>>)
    return get(operand_c<A>{}, e);
  else if constexpr (std::is_lvalue_reference_v<decltype(get(operand_c<A>{}, e))>)
    return R::load_unaligned(&get(operand_c<A>{}, e));  // W consecutive numbers (or bools) in memory
  else {  // values read one by one
    alignas(64) std::remove_cvref_t<decltype(get(operand_c<A>{}, e))> lanes[V::size];
    for (std::size_t l = 0; l < V::size; ++l) lanes[l] = get(operand_c<A>{}, e + static_cast<int>(l));
    return R::load_aligned(lanes);
  }
}

/// The traits of the scalar op reduction J folds with (its `reduction_op_traits::pick`).
template <const auto& IR, std::size_t J>
using fold_traits = op_traits<typename op_traits<builtin_at_t<static_cast<std::size_t>(IR.nodes[J].op().builtin)>>::pick>;

/// How the elements of a broadcast from shape `from` to shape `to` lie: runs of `kept`
/// consecutive elements are consecutive elements of the operand (its trailing axes that are
/// not broadcast), runs of `repeated` consecutive elements are one element of it (its
/// trailing axes of extent 1).
struct broadcast_runs {
  int kept = 1, repeated = 1;
  static constexpr broadcast_runs of(const shape& from, const shape& to) {
    broadcast_runs b;
    bool keeping = true, repeating = true;
    for (int a = to.rank - 1; a >= 0; --a) {
      const int k = a - (to.rank - from.rank), f = k >= 0 ? from.extent[k] : 1;
      keeping = keeping && f == to.extent[a];
      repeating = repeating && f == 1;
      if (keeping) b.kept *= to.extent[a];
      if (repeating) b.repeated *= to.extent[a];
    }
    return b;
  }
};

/// The widest SIMD width, W or W / 2, W / 4, ..., at which loop j's broadcasts and
/// reductions over one axis read whole batches of their runs (`fused_value`): kmeans'
/// rows of 8 coordinates are half an AVX-512 batch of floats, and at 16 lanes every
/// element went lane by lane (6-7x the loop at 8). 1: none (the loop keeps W).
template <class IR>
constexpr int loop_width(const IR& r, const std::array<fused_role, IR::size>& role, std::size_t j, int W) {
  std::array<bool, IR::size> seen{};  // not vector<bool>: clang 14 cannot make one in constant evaluation
  std::vector<std::size_t> region;
  auto visit = [&](auto& self, std::size_t k) -> void {
    if (seen[k]) return;
    seen[k] = true;
    region.push_back(k);
    for (int i = 0; i < r.nodes[k].arity; ++i) {
      const std::size_t a = static_cast<std::size_t>(r.operand(k, i));
      if (role[a] == fused_role::inside) self(self, a);
    }
  };
  visit(visit, j);
  // Whether node k reads whole batches of w, at least where a batch lies in one of its runs
  // (true where it reads none): a run of w or more (a longer run that is no multiple of w
  // reads its last batch lane by lane, which costs less than narrower batches throughout).
  auto whole_at = [&](std::size_t k, int w) {
    const node& n = r.nodes[k];
    const std::size_t a = n.arity > 0 ? static_cast<std::size_t>(r.operand(k, 0)) : 0;
    if (n.op().builtin == builtin_code::broadcast_in_dim && r.nodes[a].size() > 1) {
      const broadcast_runs b = broadcast_runs::of(r.nodes[a].dims, n.dims);
      return b.kept >= w || b.repeated >= w;
    }
    if (fusable_reduction(r, k) && n.attr[0] >= 0) {
      const axis_geometry g = axis_geometry::of(r.nodes[a].dims, n.attr[0]);
      return g.inner >= w || (g.inner == 1 && n.op().builtin == builtin_code::reduce_sum && g.n % w == 0);
    }
    return true;
  };
  // A node whole at no width (a max over rows of 10) goes lane by lane at any: it does not
  // narrow the loop. Which nodes are whole at some width, found once for every width tried.
  // (An array by node, as `seen`: clang 14 cannot make a std::vector<char> of n in constant
  // evaluation, libstdc++ fills it past the first element's lifetime.)
  std::array<bool, IR::size> narrows{};
  for (std::size_t k : region)
    for (int v = W; v > 1 && !narrows[k]; v /= 2) narrows[k] = whole_at(k, v);
  auto whole = [&](int w) {
    for (std::size_t k : region)
      if (narrows[k] && !whole_at(k, w)) return false;
    return true;
  };
  for (int w = W; w > 1; w /= 2)
    if (whole(w)) return w;
  return 1;
}

#ifndef __CUDA_ARCH__
/// xsimd's batch of T of `Width` lanes, or its widest batch where xsimd has none of that
/// width (or `Width` is the widest, or under 2).
template <class T, int Width>
using batch_of_width = std::conditional_t<Width == static_cast<int>(xsimd::batch<T>::size) || Width < 2 ||
                                              std::is_void_v<xsimd::make_sized_batch_t<T, static_cast<std::size_t>(Width)>>,
                                          xsimd::batch<T>, xsimd::make_sized_batch_t<T, static_cast<std::size_t>(Width)>>;

/// The SIMD batch loop J of numbers of type T runs in (`loop_width`): the widest that
/// xsimd compiles, or a narrower one of the same instruction set's family (on AVX-512,
/// AVX2's 8 floats) where that reads whole runs.
template <const auto& IR, std::size_t J, class T>
struct loop_batch {
  static constexpr int width = loop_width(IR, fusion_of<IR>, J, static_cast<int>(xsimd::batch<T>::size));
  using type = batch_of_width<T, width>;
};
template <const auto& IR, std::size_t J, class T>
using loop_batch_t = typename loop_batch<IR, J, T>::type;

/// The widest SIMD batch of T of at most N lanes (of the widest, where none is): a row of
/// 8 floats sums as one AVX2 batch on AVX-512, where a batch of 16 left it to scalar adds.
template <class T, int N>
struct row_batch {
  static constexpr int width = [] {
    int w = static_cast<int>(xsimd::batch<T>::size);
    while (w > N && w > 2) w /= 2;
    return w;
  }();
  using type = batch_of_width<T, width>;
};
template <class T, int N>
using row_batch_t = typename row_batch<T, N>::type;
#endif

#ifndef __CUDA_ARCH__
/// The fold of `Traits::kernel` over N elements as `fold_batches`, for N of one batch or
/// more: one accumulator where N is under four batches (a row of a reduction over its last
/// axis).
template <class Traits, int N, class T, class B = xsimd::batch<T>, class Batch, class One>
CALX_INLINE T fold_run(const Batch& batch, const One& one) {
  constexpr int W = static_cast<int>(B::size), full = N / W * W;
  if constexpr (N >= 4 * W) {
    return fold_batches<Traits, N, T, B>(batch, one);
  } else {
    B acc = batch(0);
    for (int e = W; e < full; e += W) acc = Traits::kernel(acc, batch(e));
    T r = fold_lanes<Traits>(acc);
    for (int e = full; e < N; ++e) r = Traits::kernel(r, one(e));
    return r;
  }
}
#endif

/// The fold of `Traits::kernel` over `at(0 .. N)` (numbers or batches), in two chains
/// (even and odd k) from four elements up: one chain waited on each add's latency.
template <class Traits, int N, class V, class At>
CALX_HOST_DEVICE CALX_INLINE V fold_strided(const At& at) {
  if constexpr (N >= 4) {
    V a = at(0), b = at(1);
    for (int k = 2; k + 1 < N; k += 2) {
      a = Traits::kernel(a, at(k));
      b = Traits::kernel(b, at(k + 1));
    }
    if constexpr (N % 2 == 1) a = Traits::kernel(a, at(N - 1));
    return Traits::kernel(a, b);
  } else {
    V acc = at(0);
    for (int k = 1; k < N; ++k) acc = Traits::kernel(acc, at(k));
    return acc;
  }
}

/// `broadcast_source_index(From, To, e)` with the shapes' strides and extents constants
/// of the code (the loop over axes, called at run time, was neither unrolled nor folded):
/// the sum of each axis K of `From`'s term.
template <shape From, shape To, int K>
CALX_HOST_DEVICE CALX_INLINE int broadcast_term(int e) {
  constexpr int A = To.rank - From.rank + K;  // the axis of `To` that axis K lines up with
  if constexpr (From.extent[K] == 1)
    return 0;
  else if constexpr (A == 0)
    return e / To.stride(A) * From.stride(K);  // the first axis needs no modulo
  else
    return e / To.stride(A) % To.extent[A] * From.stride(K);
}
template <shape From, shape To, int... K>
CALX_HOST_DEVICE CALX_INLINE int broadcast_source(int e, std::integer_sequence<int, K...>) {
  return (0 + ... + broadcast_term<From, To, K>(e));
}
template <shape From, shape To>
CALX_HOST_DEVICE CALX_INLINE int broadcast_source(int e) {
  return broadcast_source<From, To>(e, std::make_integer_sequence<int, From.rank>{});
}

/// Element(s) e of node J as W numbers taken one by one.
template <const auto& IR, std::size_t J, class V, int Lo, int Hi, class Get>
CALX_INLINE V fused_lanes(const Get& get, int e) {
  using T = typename V::value_type;
  alignas(64) T lanes[V::size];
  for (int l = 0; l < static_cast<int>(V::size); ++l) lanes[l] = fused_value<IR, J, T, Lo, Hi, 1>(get, e + l);
  return V::load_aligned(lanes);
}

/// Where a getter that gives rows' dot products (`row_dot_values`) holds node j's, or -1.
template <class Get>
constexpr int given_row_dot(int j) {
  if constexpr (requires { Get::slot_of(0); })
    return Get::slot_of(j);
  else
    return -1;
}

template <const auto& IR, std::size_t J, class V, int Lo, int Hi, int M = 1, class Get>
CALX_HOST_DEVICE CALX_INLINE fused_t<IR, J, V> fused_value(const Get& get, int e) {
  constexpr node n = IR.nodes[J];
  if constexpr (n.op().builtin == builtin_code::broadcast_in_dim &&
                IR.nodes[static_cast<std::size_t>(IR.operand(J, 0))].size() == 1) {
    if constexpr (constant_number(IR, IR.operand(J, 0))) {
      constexpr double c = IR.nodes[static_cast<std::size_t>(IR.operand(J, 0))].value;  // see `fused_operand`
      return V(static_cast<lane_t<V>>(c));
    } else {
      return V(get(operand_c<IR.operand(J, 0)>{}, 0));
    }
  } else if constexpr (n.op().builtin == builtin_code::broadcast_in_dim) {
    // Element e is the operand's element `broadcast_source_index`; W elements from e are W
    // of the operand's, or one repeated, where they lie in one run (`broadcast_runs`).
    constexpr int A = IR.operand(J, 0);
    constexpr shape from = IR.nodes[static_cast<std::size_t>(A)].dims, to = n.dims;
    const int src = broadcast_source<from, to>(e);
    if constexpr (!xsimd::is_batch<V>::value) {
      return fused_operand<IR, A, V, 0, from.size()>(get, src);
    } else {
      // src = e modulo `kept`: aligned as e is where M divides it.
      constexpr broadcast_runs runs = broadcast_runs::of(from, to);
      constexpr int W = static_cast<int>(V::size), src_m = runs.kept % M == 0 ? M : 1;
      if constexpr (runs.kept >= W) {
        if constexpr (runs.kept % W == 0 && M % W == 0) return fused_operand<IR, A, V, 0, from.size(), src_m>(get, src);
        if (e % runs.kept <= runs.kept - W) return fused_operand<IR, A, V, 0, from.size(), src_m>(get, src);
      }
      if constexpr (runs.repeated >= W) {
        using T = typename V::value_type;
        if constexpr (runs.repeated % W == 0 && M % W == 0) return V(fused_operand<IR, A, T, 0, from.size()>(get, src));
        if (e % runs.repeated <= runs.repeated - W) return V(fused_operand<IR, A, T, 0, from.size()>(get, src));
      }
      return fused_lanes<IR, J, V, Lo, Hi>(get, e);
    }
  } else if constexpr (fusable_reduction(IR, J)) {
    // Over one axis (a reduction of every element is one number: never fused, and its loop
    // is `fused_fold`): element e = (o, i) folds the operand's (o, k, i) over k; W elements
    // from e in one block of `inner` fold W consecutive elements at a time.
    // The operand is computed here, or read from memory (`fused_operand`).
    constexpr int XA = IR.operand(J, 0);
    constexpr std::size_t X = static_cast<std::size_t>(XA);
    constexpr axis_geometry g = axis_geometry::of(IR.nodes[X].dims, n.attr[0]);
    constexpr int size = IR.nodes[X].size();
    using fold = fold_traits<IR, J>;
    const int o = e / g.inner, i = e % g.inner;
    if constexpr (xsimd::is_batch<V>::value) {
      constexpr int W = static_cast<int>(V::size);
      if constexpr (g.inner >= W) {
        // Aligned e (M) in blocks of whole batches: every batch lies in one block, aligned.
        constexpr bool aligned = g.inner % W == 0 && M % W == 0;
        if (aligned || i <= g.inner - W)
          return fold_strided<fold, g.n, V>([&](int k) CALX_INLINE_LAMBDA {
            return fused_operand<IR, XA, V, 0, size, aligned ? W : 1>(get, g.at(o, k, i));
          });
      } else if constexpr (g.inner == 1 && g.n % W == 0 && std::is_same_v<fold, op_traits<add_op>>) {
        // W sums of rows of W-multiples: each row's batches added, then the W rows' lanes
        // at once (`haddp`), where one by one each row was a horizontal add.
        V rows[W];
        for (int l = 0; l < W; ++l)
          rows[l] = fold_strided<fold, g.n / W, V>([&](int k) CALX_INLINE_LAMBDA {
            return fused_operand<IR, XA, V, 0, size, W>(get, g.at(o + l, k * W, 0));
          });
        return xsimd::haddp(rows);
      }
      return fused_lanes<IR, J, V, Lo, Hi>(get, e);
    } else {
#ifndef __CUDA_ARCH__
      // A row of consecutive elements (a reduction over the last axis): SIMD batches of it.
      if constexpr (g.inner == 1 && std::is_floating_point_v<V>) {
        using B = row_batch_t<V, g.n>;
        constexpr int row_w = static_cast<int>(B::size), row_m = g.n % row_w == 0 ? row_w : 1;
        if constexpr (g.n >= row_w)
          return fold_run<fold, g.n, V, B>(
              [&](int k) CALX_INLINE_LAMBDA { return fused_operand<IR, XA, B, 0, size, row_m>(get, g.at(o, k, 0)); },
              [&](int k) CALX_INLINE_LAMBDA { return fused_operand<IR, XA, V, 0, size>(get, g.at(o, k, 0)); });
      }
#endif
      return fold_strided<fold, g.n, V>(
          [&](int k) CALX_INLINE_LAMBDA { return fused_operand<IR, XA, V, 0, size>(get, g.at(o, k, i)); });
    }
  } else if constexpr (blocked_shift(IR, J)) {
    // Along a later axis: blocks of `block` elements, one per outer index o; element r of
    // block o is the operand's o * op_block + r + lo (a slice), or o * op_block + r - lo in
    // the pad's run [lo, hi) of the block, zero outside it.
    constexpr int A = IR.operand(J, 0);
    constexpr bool pad = n.op().builtin == builtin_code::pad;
    constexpr axis_geometry g = axis_geometry::of(n.dims, n.attr[0]);
    constexpr int block = g.n * g.inner, op_block = IR.nodes[static_cast<std::size_t>(A)].size() / g.outer,
                  lo = n.attr[1] * g.inner, hi = n.attr[2] * g.inner, size = IR.nodes[static_cast<std::size_t>(A)].size();
    constexpr int src_m = block % M == 0 && op_block % M == 0 && lo % M == 0 ? M : 1;
    const int o = e / block, r = e % block, src = o * op_block + (pad ? r - lo : r + lo);
    if constexpr (!xsimd::is_batch<V>::value) {
      if constexpr (pad)
        return r >= lo && r < hi ? fused_operand<IR, A, V, 0, size>(get, src) : V(0);
      else
        return fused_operand<IR, A, V, 0, size>(get, src);
    } else {
      constexpr int W = static_cast<int>(V::size);
      constexpr bool whole = block % W == 0 && M % W == 0;  // no batch straddles two blocks
      if constexpr (pad) {
        if (r >= lo && r + W <= hi) return fused_operand<IR, A, V, 0, size, src_m>(get, src);
        if (r + W <= lo || (r >= hi && (whole || r + W <= block))) return V(0);
      } else if (whole || r + W <= block) {
        return fused_operand<IR, A, V, 0, size, src_m>(get, src);
      }
      return fused_lanes<IR, J, V, Lo, Hi>(get, e);
    }
  } else if constexpr (n.op().builtin == builtin_code::slice || n.op().builtin == builtin_code::reshape) {
    constexpr int lo = shifted_run(IR, J).first;
    return fused_operand<IR, IR.operand(J, 0), V, Lo + lo, Hi + lo, lo % M == 0 ? M : 1>(get, e + lo);
  } else if constexpr (n.op().builtin == builtin_code::pad) {
    constexpr std::pair<int, int> run = shifted_run(IR, J);
    constexpr int lo = run.first, hi = run.second, in_lo = (Lo > lo ? Lo : lo) - lo, in_hi = (Hi < hi ? Hi : hi) - lo;
    if constexpr (Lo >= lo && Hi <= hi) {  // all in the run
      return fused_operand<IR, IR.operand(J, 0), V, Lo - lo, Hi - lo, lo % M == 0 ? M : 1>(get, e - lo);
    } else if constexpr (Hi <= lo || Lo >= hi) {  // all outside
      return V(0);
    } else if constexpr (!xsimd::is_batch<V>::value) {
      return e >= lo && e < hi ? fused_operand<IR, IR.operand(J, 0), V, in_lo, in_hi>(get, e - lo) : V(0);
    } else {  // W elements: inside the run, across an end of it, or outside
      constexpr int W = static_cast<int>(V::size);
      if (e >= lo && e + W <= hi)
        return fused_operand<IR, IR.operand(J, 0), V, in_lo, in_hi, lo % M == 0 ? M : 1>(get, e - lo);
      if (e + W <= lo || e >= hi) return V(0);
      return fused_lanes<IR, J, V, Lo, Hi>(get, e);
    }
  } else if constexpr (row_dots(IR, J)) {
    // Element e of A x, inside a streamed A^T v (`streamed_contraction`, which reads v one
    // element at a time: V is a number, or SIMD lanes of samples): given by the stream
    // (`row_dot_values`), or the dot product of A's row e with x, both in memory (neither
    // fuses into a contraction).
    constexpr int MA = IR.operand(J, 0), XA = IR.operand(J, 1), R = IR.nodes[static_cast<std::size_t>(XA)].size();
    if constexpr (given_row_dot<Get>(static_cast<int>(J)) >= 0) {
      return get.value[given_row_dot<Get>(static_cast<int>(J))];
    } else {
#ifndef __CUDA_ARCH__
      if constexpr (std::is_floating_point_v<V> && std::is_lvalue_reference_v<decltype(get(operand_c<MA>{}, 0))> &&
                    std::is_lvalue_reference_v<decltype(get(operand_c<XA>{}, 0))>)
        return dot_kernel<R>(&get(operand_c<MA>{}, e * R), &get(operand_c<XA>{}, 0));
#endif
      V acc = get(operand_c<MA>{}, e * R) * get(operand_c<XA>{}, 0);
      for (int k = 1; k < R; ++k) acc += get(operand_c<MA>{}, e * R + k) * get(operand_c<XA>{}, k);
      return acc;
    }
  } else {
    using traits = op_traits<builtin_at_t<static_cast<std::size_t>(n.op().builtin)>>;
    return [&]<int... I>(std::integer_sequence<int, I...>) CALX_INLINE_LAMBDA {
      return fused_t<IR, J, V>(traits::kernel(fused_operand<IR, IR.operand(J, I), V, Lo, Hi, M>(get, e)...));
    }(std::make_integer_sequence<int, n.arity>{});
  }
}

#ifndef __CUDA_ARCH__
/// Nothing: what a loop that folds no reduction does with each value it writes.
struct no_fold {
  template <class V>
  CALX_INLINE void operator()(const V&) const {}
};

/// Elements [Lo, Hi) of loop J, numbers in memory: batches of W from the first multiple of
/// W (stores on whole batches of the register), single elements before and after; `seen`
/// sees each value written (a batch or a number: the fold of `fused_loop_fold_call`).
template <const auto& IR, std::size_t J, int Lo, int Hi, class T, class Get, class Seen>
CALX_INLINE void fused_segment(const Get& get, T* __restrict out, Seen& seen) {
  using B = loop_batch_t<IR, J, T>;
  // Constant bounds (not one loop's end as the next's start): g++ 12 could not bound the
  // second loop's index and warned of writes past the registers.
  constexpr int W = static_cast<int>(B::size), first = (Lo + W - 1) / W * W < Hi ? (Lo + W - 1) / W * W : Hi,
                full = first + (Hi - first) / W * W;
  for (int e = Lo; e < first; ++e) seen(out[e] = fused_value<IR, J, T, Lo, Hi>(get, e));
  for (int e = first; e < full; e += W) {
    const B v = fused_value<IR, J, B, Lo, Hi, W>(get, e);
    v.store_unaligned(out + e);
    seen(v);
  }
  for (int e = full; e < Hi; ++e) seen(out[e] = fused_value<IR, J, T, Lo, Hi>(get, e));
}

/// What a fold starts from: -0 for a sum (-0 + x is x, -0 included), -inf for a max,
/// +inf for a min.
template <class Fold, class T>
constexpr T fold_start() {
  if constexpr (!requires { Fold::extremum_is_max; })
    return T(-0.0);
  else
    return Fold::extremum_is_max ? -std::numeric_limits<T>::infinity() : std::numeric_limits<T>::infinity();
}

/// Loop J over numbers in memory: `out[e]` for every element, segment by segment
/// (`cuts_of`).
template <const auto& IR, std::size_t J, class T, class Get, class Seen, std::size_t... S>
CALX_INLINE void fused_loop(const Get& get, T* __restrict out, Seen& seen, std::index_sequence<S...>) {
  constexpr const loop_cuts& c = cuts_of<IR, J>;
  (fused_segment<IR, J, c.at[S], c.at[S + 1], T>(get, out, seen), ...);
}
template <const auto& IR, std::size_t J, class T, class Get, class Seen = const no_fold>
CALX_INLINE void fused_loop(const Get& get, T* __restrict out, Seen& seen = no_fold{}) {
  fused_loop<IR, J, T>(get, out, seen, std::make_index_sequence<static_cast<std::size_t>(cuts_of<IR, J>.n - 1)>{});
}

/// Calls `f` with a copy of `get` that no store can reach, whose input pointers (where the
/// inputs are read in place) are a local array of its own: read through the caller's
/// array, g++ loaded two of them again after every store of RK4's loops.
template <const auto& IR, class Get, class F>
CALX_INLINE auto with_own_inputs(const Get& get, const F& f) {
  if constexpr (requires { get.in.at[0][0]; }) {
    constexpr std::size_t n = std::remove_cvref_t<decltype(IR)>::input_leaves;
    std::remove_cvref_t<decltype(get.in.at[0])> at[n > 0 ? n : 1];
    for (std::size_t k = 0; k < n; ++k) at[k] = get.in.at[k];
    return f(Get{get.r, {at}});
  } else {
    const Get own = get;
    return f(own);
  }
}

/// The same out of line (one function per loop), from eight SIMD batches of elements up
/// (`elementwise_batches`' threshold): inlined into the program, the f64 gradient of
/// logsumexp of 2500 took 1.8x as long (its exp loop, the same code, ran 1.6x slower).
template <const auto& IR, std::size_t J, class T, class Get>
[[gnu::noinline]] void fused_loop_call(const Get& get, T* __restrict out) {
  with_own_inputs<IR>(get, [out](const Get& own) CALX_INLINE_LAMBDA { fused_loop<IR, J, T>(own, out); });
}

/// `fused_loop_call` that also folds every element with reduction R's op, and returns that
/// fold: one pass where the loop wrote J and the reduction read it back.
template <const auto& IR, std::size_t J, std::size_t R, class T, class Get>
[[gnu::noinline]] T fused_loop_fold_call(const Get& get, T* __restrict out) {
  using Fold = fold_traits<IR, R>;
  return with_own_inputs<IR>(get, [out](const Get& own) CALX_INLINE_LAMBDA {
    loop_batch_t<IR, J, T> acc(fold_start<Fold, T>());
    T one = fold_start<Fold, T>();
    auto fold = [&](const auto& v) CALX_INLINE_LAMBDA {
      if constexpr (xsimd::is_batch<std::remove_cvref_t<decltype(v)>>::value)
        acc = Fold::kernel(acc, v);
      else
        one = Fold::kernel(one, v);
    };
    fused_loop<IR, J, T>(own, out, fold);
    return Fold::kernel(fold_lanes<Fold>(acc), one);
  });
}

/// Whether loop J runs as `fused_loop_call` on numbers of type T, so that it can fold a
/// reduction of its elements (`loop_fold_of`): the reduction's statement then does nothing.
template <const auto& IR, std::size_t J, class T>
constexpr bool loop_call_runs() {
#ifndef __CUDA_ARCH__
  if constexpr (std::is_floating_point_v<T>)
    return IR.nodes[J].kind == value_kind::real && IR.nodes[J].size() >= 8 * static_cast<int>(xsimd::batch<T>::size);
#endif
  return false;
}

/// Reduction J of its operand X's elements, numbers, out of line as `fused_loop_call`: X
/// computed here (fused), or read (a loop's result whose fold did not run in the loop).
template <const auto& IR, std::size_t J, std::size_t X, class T, class Get>
[[gnu::noinline]] T fused_fold(const Get& get) {
  constexpr int A = static_cast<int>(X), size = IR.nodes[X].size();
  using B = loop_batch_t<IR, X, T>;
  return fold_batches<fold_traits<IR, J>, size, T, B>(
      [&](int e) { return fused_operand<IR, A, B, 0, size, B::size>(get, e); },
      [&](int e) { return fused_operand<IR, A, T, 0, size>(get, e); });
}
#endif

}  // namespace detail
CALX_END_NAMESPACE

#endif // CALX_DETAIL_EXEC_FUSION_HPP
