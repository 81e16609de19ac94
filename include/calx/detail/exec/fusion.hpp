/// @file detail/exec/fusion.hpp
/// @brief Fusion of elementwise chains in straight-line code over tensors of numbers (32
/// elements or more): a built-in elementwise op whose only reader is another elementwise op
/// of its size or a sum, max or min of every element (comparisons, masks and `where`
/// included: a mask is a `batch_bool`), a slice or pad that shifts the flat index (one run
/// along a leading axis) read by such ops, and a scalar broadcast read only by such ops, are
/// not written out; the op that reads them computes them in its own loop,
/// element by element (xsimd batches of elements on the host), from the values they read.
/// `exp(x - max(x)) * 2` is then one loop that reads x once and writes one tensor, where
/// node by node it was five loops and five tensors; `concatenate(x[:1], x[1:] * y[:-1])`
/// one loop where it was six. The IR keeps one node per op (its
/// printed text, its passes); fusion is codegen only.
///
/// Which nodes fuse is decided with the registers (`fusion_inside`, `allocate_slots`,
/// detail/ir/ir.hpp): a fused node gets none, and what it reads keeps its register until
/// the loop that computes it has run. This header is the statements' side.
#ifndef CALX_DETAIL_EXEC_FUSION_HPP
#define CALX_DETAIL_EXEC_FUSION_HPP

#include <calx/detail/internal_header_check.hpp>

#include <calx/detail/exec/node_kernel.hpp>
#include <calx/detail/ir/graph.hpp>
#include <calx/detail/ir/ir.hpp>
#include <calx/detail/tensor/elementwise_batches.hpp>
#include <calx/detail/tensor/ir_ops.hpp>

#include <xsimd/xsimd.hpp>

#include <algorithm>
#include <array>
#include <cstddef>
#include <type_traits>
#include <utility>
#include <vector>

CALX_BEGIN_NAMESPACE
namespace detail {

/// What fusion makes of a node: run as it is, computed inside its readers' loops, or a loop
/// that computes fused operands.
enum class fused_role : unsigned char { alone, inside, loop };

/// Each node's `fused_role` in straight-line code of program `r`, as `allocate_slots` laid
/// out its registers: it gave every node a register but the fused ones (`fusion_inside`),
/// which are read back here rather than worked out again. Backends with registers of their
/// own (the SIMD executor, the device loop) fuse nothing: they take `plain_statement_of`.
template <class IR>
constexpr std::array<fused_role, IR::size> fusion_plan(const IR& r) {
  std::array<fused_role, IR::size> role{};
  for (auto& x : role) x = fused_role::alone;
  if (r.real_slots == 0) return role;  // no straight-line registers: nothing fused
  std::array<bool, IR::size> inside{};
  for (std::size_t j = 0; j < IR::size; ++j) inside[j] = r.nodes[j].slot < 0 && !r.nodes[j].is_input();
  for (std::size_t j = 0; j < IR::size; ++j)
    if (inside[j]) {
      role[j] = fused_role::inside;
    } else {
      for (int i = 0; i < r.nodes[j].arity; ++i)
        if (inside[static_cast<std::size_t>(r.operand(j, i))]) role[j] = fused_role::loop;
    }
  return role;
}

template <const auto& IR>
inline constexpr auto fusion_of = fusion_plan(IR);

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
    if (code == builtin_code::broadcast_in_dim) return;
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
/// which tells a pad whether they are in its run.
template <const auto& IR, std::size_t J, class V, int Lo, int Hi, class Get>
CALX_HOST_DEVICE CALX_INLINE fused_t<IR, J, V> fused_value(const Get& get, int e);

template <const auto& IR, int A, class V, int Lo, int Hi, class Get>
CALX_HOST_DEVICE CALX_INLINE fused_t<IR, static_cast<std::size_t>(A), V> fused_operand(const Get& get, int e) {
  using R = fused_t<IR, static_cast<std::size_t>(A), V>;
  if constexpr (fusion_of<IR>[static_cast<std::size_t>(A)] == fused_role::inside)
    return fused_value<IR, static_cast<std::size_t>(A), V, Lo, Hi>(get, e);
  else if constexpr (std::is_same_v<R, std::remove_cvref_t<decltype(get(operand_c<A>{}, e))>>)
    return get(operand_c<A>{}, e);
  else if constexpr (std::is_lvalue_reference_v<decltype(get(operand_c<A>{}, e))>)
    return R::load_unaligned(&get(operand_c<A>{}, e));  // W consecutive numbers (or bools) in memory
  else {  // values read one by one
    alignas(64) std::remove_cvref_t<decltype(get(operand_c<A>{}, e))> lanes[V::size];
    for (std::size_t l = 0; l < V::size; ++l) lanes[l] = get(operand_c<A>{}, e + static_cast<int>(l));
    return R::load_aligned(lanes);
  }
}

template <const auto& IR, std::size_t J, class V, int Lo, int Hi, class Get>
CALX_HOST_DEVICE CALX_INLINE fused_t<IR, J, V> fused_value(const Get& get, int e) {
  constexpr node n = IR.nodes[J];
  if constexpr (n.op().builtin == builtin_code::broadcast_in_dim) {
    return V(get(operand_c<IR.operand(J, 0)>{}, 0));
  } else if constexpr (n.op().builtin == builtin_code::slice) {
    constexpr int lo = shifted_run(IR, J).first;
    return fused_operand<IR, IR.operand(J, 0), V, Lo + lo, Hi + lo>(get, e + lo);
  } else if constexpr (n.op().builtin == builtin_code::pad) {
    constexpr std::pair<int, int> run = shifted_run(IR, J);
    constexpr int lo = run.first, hi = run.second, in_lo = (Lo > lo ? Lo : lo) - lo, in_hi = (Hi < hi ? Hi : hi) - lo;
    if constexpr (Lo >= lo && Hi <= hi) {  // all in the run
      return fused_operand<IR, IR.operand(J, 0), V, Lo - lo, Hi - lo>(get, e - lo);
    } else if constexpr (Hi <= lo || Lo >= hi) {  // all outside
      return V(0);
    } else if constexpr (!xsimd::is_batch<V>::value) {
      return e >= lo && e < hi ? fused_operand<IR, IR.operand(J, 0), V, in_lo, in_hi>(get, e - lo) : V(0);
    } else {  // W elements: inside the run, across an end of it, or outside
      constexpr int W = static_cast<int>(V::size);
      if (e >= lo && e + W <= hi) return fused_operand<IR, IR.operand(J, 0), V, in_lo, in_hi>(get, e - lo);
      if (e + W <= lo || e >= hi) return V(0);
      using T = typename V::value_type;
      alignas(64) T lanes[V::size];
      for (int l = 0; l < W; ++l) lanes[l] = fused_value<IR, J, T, Lo, Hi>(get, e + l);
      return V::load_aligned(lanes);
    }
  } else {
    using traits = op_traits<builtin_at_t<static_cast<std::size_t>(n.op().builtin)>>;
    return [&]<int... I>(std::integer_sequence<int, I...>) CALX_INLINE_LAMBDA {
      return fused_t<IR, J, V>(traits::kernel(fused_operand<IR, IR.operand(J, I), V, Lo, Hi>(get, e)...));
    }(std::make_integer_sequence<int, n.arity>{});
  }
}

/// The traits of the scalar op reduction J folds with (its `reduction_op_traits::pick`).
template <const auto& IR, std::size_t J>
using fold_traits = op_traits<typename op_traits<builtin_at_t<static_cast<std::size_t>(IR.nodes[J].op().builtin)>>::pick>;

#ifndef __CUDA_ARCH__
/// Elements [Lo, Hi) of loop J, numbers in memory: batches of W from the first multiple of
/// W (stores on whole batches of the register), single elements before and after.
template <const auto& IR, std::size_t J, int Lo, int Hi, class T, class Get>
CALX_INLINE void fused_segment(const Get& get, T* __restrict out) {
  using B = xsimd::batch<T>;
  // Constant bounds (not one loop's end as the next's start): g++ 12 could not bound the
  // second loop's index and warned of writes past the registers.
  constexpr int W = static_cast<int>(B::size), first = (Lo + W - 1) / W * W < Hi ? (Lo + W - 1) / W * W : Hi,
                full = first + (Hi - first) / W * W;
  for (int e = Lo; e < first; ++e) out[e] = fused_value<IR, J, T, Lo, Hi>(get, e);
  for (int e = first; e < full; e += W) fused_value<IR, J, B, Lo, Hi>(get, e).store_unaligned(out + e);
  for (int e = full; e < Hi; ++e) out[e] = fused_value<IR, J, T, Lo, Hi>(get, e);
}

/// Loop J over numbers in memory: `out[e]` for every element, segment by segment
/// (`cuts_of`).
template <const auto& IR, std::size_t J, class T, class Get, std::size_t... S>
CALX_INLINE void fused_loop(const Get& get, T* __restrict out, std::index_sequence<S...>) {
  constexpr const loop_cuts& c = cuts_of<IR, J>;
  (fused_segment<IR, J, c.at[S], c.at[S + 1], T>(get, out), ...);
}
template <const auto& IR, std::size_t J, class T, class Get>
CALX_INLINE void fused_loop(const Get& get, T* __restrict out) {
  fused_loop<IR, J, T>(get, out, std::make_index_sequence<static_cast<std::size_t>(cuts_of<IR, J>.n - 1)>{});
}

/// The same out of line (one function per loop), from eight SIMD batches of elements up
/// (`elementwise_batches`' threshold): inlined into the program, the f64 gradient of
/// logsumexp of 2500 took 1.8x as long (its exp loop, the same code, ran 1.6x slower).
template <const auto& IR, std::size_t J, class T, class Get>
[[gnu::noinline]] void fused_loop_call(const Get& get, T* __restrict out) {
  const Get own = get;  // a copy no store can reach: its pointers stay in registers
  fused_loop<IR, J, T>(own, out);
}

/// Reduction J of its fused operand X's elements, numbers, out of line as `fused_loop_call`.
template <const auto& IR, std::size_t J, std::size_t X, class T, class Get>
[[gnu::noinline]] T fused_fold(const Get& get) {
  return fold_batches<fold_traits<IR, J>, IR.nodes[X].size(), T>(
      [&](int e) { return fused_value<IR, X, xsimd::batch<T>, 0, IR.nodes[X].size()>(get, e); },
      [&](int e) { return fused_value<IR, X, T, 0, IR.nodes[X].size()>(get, e); });
}
#endif

/// Node J's statement where fusion touches it: nothing for a fused node, one loop for a
/// loop; on numbers in memory on the host, xsimd batches of elements. A reduction's loop
/// folds its operand's elements as it computes them (four batches of partial results, as
/// `reduce_batches`; left to right where fewer).
struct fused_statement {
  template <const auto& IR, std::size_t J, class Get, class Put>
  CALX_HOST_DEVICE static CALX_INLINE void statement(const Get& get, const Put& put) {
    if constexpr (fusion_of<IR>[J] == fused_role::loop && full_reduction(IR, J)) {
      constexpr std::size_t X = static_cast<std::size_t>(IR.operand(J, 0));
      using T = std::remove_pointer_t<decltype(put.address())>;  // the program's numbers
#ifndef __CUDA_ARCH__
      if constexpr (std::is_floating_point_v<T> && IR.nodes[X].size() >= 4 * static_cast<int>(xsimd::batch<T>::size)) {
        put(0, fused_fold<IR, J, X, T>(get));
        return;
      }
#endif
      constexpr shape in = IR.nodes[X].dims;  // a constant: device code may not read IR
      reduce_loop(in, -1, [&](int e) { return fused_value<IR, X, T, 0, in.size()>(get, e); }, put,
                  [](const T& acc, const T& v) { return fold_traits<IR, J>::kernel(acc, v); });
    } else if constexpr (fusion_of<IR>[J] == fused_role::loop) {
      using T = std::remove_pointer_t<decltype(put.address())>;  // the program's numbers
      constexpr int size = IR.nodes[J].size();
#ifndef __CUDA_ARCH__
      // Numbers (not SIMD lanes of samples), a real result (a mask's loop: one by one).
      if constexpr (std::is_floating_point_v<T> && IR.nodes[J].kind == value_kind::real) {
        if constexpr (size >= 8 * static_cast<int>(xsimd::batch<T>::size))
          fused_loop_call<IR, J, T>(get, put.address());
        else
          fused_loop<IR, J, T>(get, put.address());
        return;
      }
#endif
      for (int e = 0; e < size; ++e) put(e, fused_value<IR, J, T, 0, size>(get, e));
    }
  }
};

}  // namespace detail
CALX_END_NAMESPACE

#endif // CALX_DETAIL_EXEC_FUSION_HPP
