/// @file detail/exec/loop_kernels.hpp
/// @brief The loops codegen emits for calx's loop ops (detail/call/loop_op.hpp,
/// calx/while_loop.hpp).
/// A step program (the loop index, N carries and X per-step inputs in; N carries and Y
/// per-step outputs out) runs `last - first` times, as a real loop around the step's
/// straight-line code, on numbers or on SIMD batches (one sample per lane). Lanes whose trip
/// counts differ run the union of their ranges, each keeping its carry outside its own (a
/// select). The reverse loop runs a vjp program (index, carries, inputs and cotangents in;
/// cotangents out) backwards over the carries of every step: stored by the forward loop
/// (the residuals) or, without them, by a forward pass of its own. Host only.
#ifndef CALX_DETAIL_EXEC_LOOP_KERNELS_HPP
#define CALX_DETAIL_EXEC_LOOP_KERNELS_HPP

#include <calx/detail/internal_header_check.hpp>

#include <calx/detail/exec/evaluate.hpp>
#include <calx/detail/runtime_error.hpp>
#include <calx/detail/static_for.hpp>

#include <xsimd/xsimd.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <string>
#include <type_traits>
#include <vector>

CALX_BEGIN_NAMESPACE
namespace detail {

/// The real type of a value type (a number, or a SIMD batch's element).
template <class V>
struct lane_value {
  using type = V;
};
template <class T, class A>
struct lane_value<xsimd::batch<T, A>> {
  using type = T;
};
template <class V>
using element_t = typename lane_value<V>::type;

/// The steps a group of lanes runs: [first, last), and whether every lane runs all of them.
struct trip_range {
  long first = 0, last = 0;
  bool uniform = true;
};

/// A bound that is no number of steps: NaN, or past 2^53 (where a real no longer counts
/// steps one by one, and its conversion to an integer can overflow).
[[noreturn, gnu::cold, gnu::noinline]] inline void bad_trip_bound(double b) {
  invalid_argument("calx::fori_loop: a loop bound must be an integer of magnitude at most 2^53 (others are "
                   "truncated toward zero); got " + std::to_string(b));
}

/// A loop's bound as it counts steps: truncated toward zero, on each SIMD lane as on a
/// number (JAX requires integer bounds; a bound computed in reals is cut as static_cast cuts
/// it), so that a lane's trip count depends on its own sample only.
template <class V>
CALX_INLINE V trip_bound(const V& b) {
  constexpr double largest = 9007199254740992.0;  // 2^53
  if constexpr (std::is_floating_point_v<V>) {
    if (!(std::abs(static_cast<double>(b)) <= largest)) bad_trip_bound(static_cast<double>(b));
    return std::trunc(b);
  } else {
    if (!xsimd::all(xsimd::abs(b) <= V(static_cast<element_t<V>>(largest)))) {
      alignas(64) element_t<V> l[V::size];
      b.store_aligned(l);
      for (const auto x : l)
        if (!(std::abs(static_cast<double>(x)) <= largest)) bad_trip_bound(static_cast<double>(x));
    }
    return xsimd::trunc(b);
  }
}

/// The steps of bounds `lo`, `hi` (each from `trip_bound`): the union of the lanes' ranges.
template <class V>
trip_range trip_range_of(const V& lo, const V& hi) {
  if constexpr (std::is_floating_point_v<V>) {
    return {static_cast<long>(lo), static_cast<long>(hi), true};
  } else {
    using T = element_t<V>;
    alignas(64) T l[V::size], h[V::size];
    lo.store_aligned(l);
    hi.store_aligned(h);
    trip_range r{static_cast<long>(l[0]), static_cast<long>(h[0]), true};
    for (std::size_t k = 1; k < V::size; ++k) {
      r.uniform = r.uniform && l[k] == l[0] && h[k] == h[0];
      r.first = std::min(r.first, static_cast<long>(l[k]));
      r.last = std::max(r.last, static_cast<long>(h[k]));
    }
    return r;
  }
}

/// `next` where step `index` is in [lo, hi) for the lane, else `c` (batches only).
template <class V>
CALX_INLINE V in_range_select(const V& index, const V& lo, const V& hi, const V& next, const V& c) {
  return xsimd::select((index >= lo) & (index < hi), next, c);
}

/// `f(k)` for k in [0, N), unrolled: a loop's values are arrays indexed by constants only,
/// which the compiler keeps in registers (a runtime loop over them, even of 5, keeps them
/// in memory). Past `unrolled_max` a plain loop: values of large tensors live in memory
/// anyway, and the code stays the size of the program text.
inline constexpr std::size_t unrolled_max = 64;
template <std::size_t N, class F>
CALX_INLINE void each(const F& f) {
  if constexpr (N <= unrolled_max)
    static_for<N>([&](auto k) CALX_INLINE_LAMBDA { f(k); });  // k: a std::integral_constant
  else
    for (std::size_t k = 0; k < N; ++k) f(k);
}

/// `Table[k]`, a constant where `k` is (an index `each` unrolled): GCC does not always fold
/// a read of a large constant object at a runtime index, and an offset it does not know
/// sends the loop's locals to memory.
template <const auto& Table, class I>
CALX_INLINE constexpr auto entry(I k) {
  if constexpr (requires { I::value; }) {
    constexpr auto v = Table[I::value];
    return v;
  } else {
    return Table[k];
  }
}

/// `to[k] = next[k]`, for the lanes whose range holds step `index` only when `Masked` (the
/// others keep theirs).
template <bool Masked, std::size_t N, class V>
CALX_INLINE void advance(V* to, const V* next, const V& index, const V& lo, const V& hi) {
  each<N>([&](std::size_t k) {
    if constexpr (Masked)
      to[k] = in_range_select(index, lo, hi, next[k], to[k]);
    else
      to[k] = next[k];
  });
}

/// `run(std::bool_constant<Masked>)` with Masked false on numbers and where every lane runs
/// every step: each loop is compiled without a per-step test.
template <class V, class Run>
CALX_INLINE void masked_or_not(const trip_range& r, const Run& run) {
  if constexpr (std::is_floating_point_v<V>) {
    run(std::false_type{});
  } else {
    if (r.uniform)
      run(std::false_type{});
    else
      run(std::true_type{});
  }
}

/// Element e of a loop op's operand or result, for values V: a number (one sample, the
/// elements `stride` apart) or a SIMD batch (a group of samples: a batched operand's
/// element e is the lanes at `at + e * V::size`, an unbatched one the number `at[e]`).
template <class V>
struct lane_values {
  using T = element_t<V>;
  T* at = nullptr;
  std::size_t stride = 1;
  bool batched = false;
  CALX_INLINE V operator[](std::size_t e) const {
    if constexpr (std::is_floating_point_v<V>)
      return at[e * stride];
    else
      return batched ? V::load_unaligned(at + e * V::size) : V(at[e]);
  }
  /// The same values from element `e` on.
  CALX_INLINE lane_values from(std::size_t e) const {
    if constexpr (std::is_floating_point_v<V>)
      return {at + e * stride, stride, batched};
    else
      return {at + (batched ? e * V::size : e), stride, batched};
  }
  CALX_INLINE void set(std::size_t e, const V& v) const {
    if constexpr (std::is_floating_point_v<V>)
      at[e * stride] = v;
    else
      v.store_unaligned(at + e * V::size);
  }
};

/// Where the operands and results of calx's loop ops sit, by group, for N carries, X
/// per-step inputs and Y per-step outputs: the one place their rules and kernels read
/// offsets from (member k of a group at `group + k`). `Kept`: a primal loop that keeps its
/// carries (one more result), a reverse loop that reads them (one more operand).
///
///   loop_op      operands (lower, upper, c[N], x[X])                          results (c[N], y[Y], [kept])
///   loop_vjp_op  operands (lower, upper, c[N], x[X], [kept], ct_c[N], ct_y[Y])  results (ct_c[N], ct_x[X])
///   while_op     operands (c[N])                                              results (c[N])
///
/// A derivative loop is a loop of a step with each group doubled, primals then tangents:
/// the forward-mode loop has results (c, dc, y, dy), the forward mode of a reverse loop
/// (ct_c, ct_dc, ct_x, ct_dx): `tangent_of_c`, `tangent_of_y` and `of_x` name where the
/// results that the rules read sit there.
template <std::size_t N, std::size_t X = 0, std::size_t Y = 0, bool Kept = false>
struct loop_slots {
  // loop_op's operands; loop_vjp_op's begin the same.
  static constexpr std::size_t lower = 0, upper = 1, c = 2, x = c + N, arity = x + X;
  // loop_vjp_op's after them.
  static constexpr std::size_t kept = arity, ct_c = kept + (Kept ? 1 : 0), ct_y = ct_c + N, vjp_arity = ct_y + Y;
  // loop_op's results, and loop_vjp_op's.
  static constexpr std::size_t out_c = 0, out_y = N, out_kept = N + Y, outputs = N + Y + (Kept ? 1 : 0);
  static constexpr std::size_t out_ct_c = 0, out_ct_x = N, vjp_outputs = N + X;
  // Where a doubled loop's results hold what a rule of this one reads.
  static constexpr std::size_t tangent_of_c = N, tangent_of_y = 2 * N + Y;  // forward-mode loop
  static constexpr std::size_t ct_of_c = 0, ct_of_x = 2 * N;                // forward mode of a reverse loop
};

/// Where a loop's values sit, from its step program `P` (index, N carries, X per-step
/// inputs in; N carries, Y per-step outputs out; each value a scalar or a tensor): `C`,
/// `XE` and `YE` are the flat sizes of the carries, of one step's inputs and of one step's
/// outputs; `c_at(k)`, `x_at(k)`, `y_at(k)` where value k of each group starts in it.
template <const auto& P, std::size_t N, std::size_t X, std::size_t Y>
struct loop_layout {
  static constexpr std::size_t carries = N;
  static constexpr std::size_t C = P.input_offset[1 + N] - 1;
  static constexpr std::size_t XE = P.input_offset[1 + N + X] - P.input_offset[1 + N];
  static constexpr std::size_t YE = P.output_offset[N + Y] - P.output_offset[N];
  /// Where value k of each group starts in it, and its size (tables for `entry`).
  template <std::size_t Count>
  using table = std::array<std::size_t, Count == 0 ? 1 : Count>;
  static constexpr table<N> c_at = [] { table<N> t{}; for (std::size_t k = 0; k < N; ++k) t[k] = P.input_offset[1 + k] - 1; return t; }();
  static constexpr table<N> c_size = [] { table<N> t{}; for (std::size_t k = 0; k < N; ++k) t[k] = P.input_offset[2 + k] - P.input_offset[1 + k]; return t; }();
  static constexpr table<X> x_at = [] { table<X> t{}; for (std::size_t k = 0; k < X; ++k) t[k] = P.input_offset[1 + N + k] - P.input_offset[1 + N]; return t; }();
  static constexpr table<X> x_size = [] { table<X> t{}; for (std::size_t k = 0; k < X; ++k) t[k] = P.input_offset[2 + N + k] - P.input_offset[1 + N + k]; return t; }();
  static constexpr table<Y> y_at = [] { table<Y> t{}; for (std::size_t k = 0; k < Y; ++k) t[k] = P.output_offset[N + k] - P.output_offset[N]; return t; }();
  static constexpr table<Y> y_size = [] { table<Y> t{}; for (std::size_t k = 0; k < Y; ++k) t[k] = P.output_offset[N + k + 1] - P.output_offset[N + k]; return t; }();
};

/// Element `e` of flat position `Off` of the per-step values `v` (the step inputs or the
/// step outputs' cotangents, starts `At`, sizes `Size`) at step `s`: read where the step
/// program uses it (see `input_reads`).
template <const auto& At, const auto& Size, std::size_t Off, class V>
CALX_INLINE V per_step(const lane_values<V>* v, std::size_t s, int e) {
  using table = std::remove_cvref_t<decltype(At)>;
  constexpr std::size_t k = [] {
    std::size_t j = 0;
    while (j + 1 < std::tuple_size_v<table> && At[j + 1] <= Off) ++j;
    return j;
  }();
  return v[k][s * Size[k] + (Off - At[k]) + static_cast<std::size_t>(e)];
}

/// Whether flat carry element `F` of layout `Lay` is in a carry of more than `unrolled_max`
/// elements: one in memory anyway, which the step reads in place (`carry_read`).
template <class Lay, std::size_t F>
inline constexpr bool in_large_carry = [] {
  for (std::size_t k = 0; k < Lay::carries; ++k)
    if (F >= Lay::c_at[k] && F < Lay::c_at[k] + Lay::c_size[k]) return Lay::c_size[k] > unrolled_max;
  return false;
}();

/// Element `e` of flat position `F` of the loop's locals `in` (index, then carries from 1):
/// a reference into a large carry, so that a fused loop of the step loads SIMD batches of it
/// where it lies (by value, each batch was gathered number by number through a stack array:
/// RK4's step on 1000 numbers ran 8x slower in a loop than outside one); a value otherwise,
/// which keeps small carries in registers.
template <class Lay, std::size_t F, class V>
CALX_INLINE decltype(auto) carry_read(const V* in, int e) {
  if constexpr (F >= 1 && in_large_carry<Lay, F - 1>)
    return (in[F + static_cast<std::size_t>(e)]);
  else
    return V(in[F + static_cast<std::size_t>(e)]);
}

/// A step program's inputs for `evaluate_reading`, for step program layout `Lay`: the index
/// and carries (flat inputs below `1 + Lay::C`) from the loop's locals `in`, the per-step
/// inputs from `xs` at step `s`, each where the step reads it. A type of its own, not a
/// lambda in each loop kernel: the loops of one step program (with and without kept
/// carries, masked or not) then share one compiled step.
template <class Lay, class V>
struct step_reads {
  const V* in;
  const lane_values<V>* xs;
  std::size_t s;
  template <std::size_t F>
  CALX_INLINE decltype(auto) operator()(std::integral_constant<std::size_t, F>, int e) const {
    if constexpr (F < 1 + Lay::C)
      return carry_read<Lay, F>(in, e);
    else
      return per_step<Lay::x_at, Lay::x_size, F - 1 - Lay::C>(xs, s, e);
  }
};

/// The same for the vjp program of a step (index, carries, per-step inputs, the carries'
/// cotangents, the per-step outputs' cotangents): the index, carries and carries'
/// cotangents from the reverse loop's locals `in`, the rest from `xs` and `ct_ys`.
template <class Lay, class V>
struct vjp_step_reads {
  const V* in;
  const lane_values<V>* xs;
  const lane_values<V>* ct_ys;
  std::size_t s;
  template <std::size_t F>
  CALX_INLINE decltype(auto) operator()(std::integral_constant<std::size_t, F>, int e) const {
    constexpr std::size_t C = Lay::C, XE = Lay::XE;
    if constexpr (F >= 1 + C && F < 1 + C + XE)
      return per_step<Lay::x_at, Lay::x_size, F - 1 - C>(xs, s, e);
    else if constexpr (F >= 1 + 2 * C + XE)
      return per_step<Lay::y_at, Lay::y_size, F - 1 - 2 * C - XE>(ct_ys, s, e);
    else if constexpr (F < 1 + C)
      return carry_read<Lay, F>(in, e);
    else  // a carry's cotangent, laid out as the carries are, after the per-step inputs
      return carry_read<Lay, F - C - XE>(in + C + XE, e);
  }
};

/// `f(k, e)` for each value k in [0, N) and each element e of its `Size[k]`, unrolled as
/// `each` unrolls (the values of a loop are locals indexed by constants).
template <std::size_t N, const auto& Size, class F>
CALX_INLINE void each_element(const F& f) {
  static_for<N>([&](auto k) CALX_INLINE_LAMBDA { each<Size[decltype(k)::value]>([&](auto e) CALX_INLINE_LAMBDA { f(k, e); }); });
}

// The helpers below write into a loop's arrays of locals from offset `At`, the arrays
// themselves passed (not a pointer into them): GCC keeps such an array in registers only
// where it sees every access to it at a constant index of the array.

/// The `N` carry operands `c` (values, sizes from `Lay`) into `to[At ..]`.
template <class Lay, std::size_t N, std::size_t At, class V, std::size_t M>
CALX_INLINE void gather_carries(V (&to)[M], const lane_values<V>* c) {
  each_element<N, Lay::c_size>([&](auto k, auto e) { to[At + entry<Lay::c_at>(k) + e] = c[k][e]; });
}

/// Step `s`'s elements of the `X` per-step input operands `xs` into `to[At ..]`.
template <class Lay, std::size_t X, std::size_t At, class V, std::size_t M>
CALX_INLINE void gather_step_inputs(V (&to)[M], const lane_values<V>* xs, std::size_t s) {
  each_element<X, Lay::x_size>(
      [&](auto k, auto e) { to[At + entry<Lay::x_at>(k) + e] = xs[k][s * entry<Lay::x_size>(k) + e]; });
}

/// Which carries a reverse loop reads back for each step: those its vjp program reads,
/// less the carries the step passes through unchanged (a loop-invariant carry, such as a
/// parameter carried along, is read from the initial carries). `first[k]` is the place of
/// carry k's first element among the `count` elements stored per step (its other elements
/// follow it), -1 if carry k is not stored. One entry per carry, not per element: a table
/// per element made compile time grow with the carries' sizes (a tensor carry of 100,000
/// elements cost g++ and clang tens of seconds of constant evaluation).
template <std::size_t N>
struct carry_store {
  std::array<int, N == 0 ? 1 : N> first{};
  std::size_t count = 0;
};

/// `Store.first[k]`, a constant where `k` is (see `entry`).
template <const auto& Store, class I>
CALX_INLINE constexpr int store_first(I k) {
  if constexpr (requires { I::value; }) {
    constexpr int v = Store.first[I::value];
    return v;
  } else {
    return Store.first[k];
  }
}

/// `f(flat, slot)` for every element of the N carries laid out by `Lay`: `flat` the element's
/// index among the flat carries, `slot` its place among the elements `Store` stores per step
/// (-1 for an element not stored).
template <class Lay, std::size_t N, const auto& Store, class F>
CALX_INLINE void each_carry_element(const F& f) {
  each_element<N, Lay::c_size>([&](auto k, auto e) CALX_INLINE_LAMBDA {
    const int first = store_first<Store>(k);
    const std::size_t flat = entry<Lay::c_at>(k) + e;
    f(flat, first < 0 ? -1 : first + static_cast<int>(e));
  });
}

/// Whether program `r` reads its input `k` (an output counts as a read).
template <class IR>
constexpr bool reads_input(const IR& r, std::size_t k) {
  const int id = r.inputs[k];
  for (const int o : r.outputs)
    if (o == id) return true;
  for (std::size_t a = 0; a < IR::operand_count; ++a)
    if (r.operands[a] == id) return true;
  return false;
}

/// The carry elements to store for step program `step` (index, N carries, ... in; N
/// carries, ... out) and its vjp program `vjp` (index, N carries, ... in).
template <std::size_t N, class P, class Q>
constexpr carry_store<N> carries_to_store(const P& step, const Q& vjp) {
  carry_store<N> s{};
  for (std::size_t k = 0; k < N; ++k) {
    const bool stored = reads_input(vjp, 1 + k) && step.outputs[k] != step.inputs[1 + k];
    s.first[k] = stored ? static_cast<int>(s.count) : -1;
    if (stored) s.count += step.input_offset[2 + k] - step.input_offset[1 + k];
  }
  return s;
}

/// Runs step program `Step` on the flat carries `c` for indices [r.first, r.last). The
/// results `out` are the carries, then the per-step outputs (output k of step s at
/// `C + L * y_at(k) + s * y_size(k)`), then with `Keep` the carry elements `Store` names,
/// before each step (the residuals of reverse mode); per-step input k of step s is
/// `xs[k]` from `s * x_size(k)`.
template <const auto& Step, std::size_t N, std::size_t X, std::size_t Y, std::size_t L, bool Keep, const auto& Store,
          class V>
void loop_forward(V* c, const lane_values<V>* xs, const lane_values<V>& out, const trip_range& r, const V& lo,
                  const V& hi) {
  using T = element_t<V>;
  using lay = loop_layout<Step, N, X, Y>;
  static constexpr std::size_t C = lay::C;
  // The step reads its inputs from `in` and writes `next`, locals whose addresses go
  // nowhere: once inlined, the carries stay in registers from step to step.
  V in[1 + C + lay::XE], next[C + lay::YE];
  each<C>([&](std::size_t f) { in[1 + f] = c[f]; });
  masked_or_not<V>(r, [&]<bool Masked>(std::bool_constant<Masked>) {
    for (long i = r.first; i < r.last; ++i) {
      const auto s = static_cast<std::size_t>(i - r.first);
      if constexpr (Keep)
        each_carry_element<lay, N, Store>([&](std::size_t f, int slot) {
          if (slot >= 0) out.set(C + L * lay::YE + s * Store.count + static_cast<std::size_t>(slot), in[1 + f]);
        });
      in[0] = V(static_cast<T>(i));
      if constexpr (reads_inputs_in_place(Step)) {
        evaluate_reading<Step>(step_reads<lay, V>{in, xs, s}, next);
      } else {
        gather_step_inputs<lay, X, 1 + C>(in, xs, s);
        evaluate_values<Step>(in, next);
      }
      advance<Masked, C>(in + 1, next, in[0], lo, hi);
      each_element<Y, lay::y_size>([&](auto k, auto e) {
        out.set(C + L * entry<lay::y_at>(k) + s * entry<lay::y_size>(k) + e, next[C + entry<lay::y_at>(k) + e]);
      });
    }
  });
  each<C>([&](std::size_t f) { c[f] = in[1 + f]; });
}

/// Reverse mode of `loop_forward`: from the flat carries `c0`, per-step inputs `xs`, the
/// final carries' cotangents `ct` and the per-step outputs' `ct_ys`, the cotangents of `c0`
/// (written to `ct`) and of `xs` (to the results `out`, after the carries' C elements, laid
/// out as `loop_forward` lays out its per-step outputs). The carry elements `Store` names
/// of step s are `kept[s * Store.count + slot]` (`each_carry_element`) when `FromKept` (stored by the
/// forward loop), else those of a forward pass of its own (into the thread's buffer); the
/// others are loop-invariant (read from `c0`) or not read.
template <const auto& Step, const auto& Vjp, std::size_t N, std::size_t X, std::size_t Y, std::size_t L, bool FromKept,
          const auto& Store, class V>
void loop_backward(const V* c0, const lane_values<V>* xs, const lane_values<V>& kept, V* ct,
                   const lane_values<V>* ct_ys, const lane_values<V>& out, const trip_range& r, const V& lo,
                   const V& hi) {
  using T = element_t<V>;
  using lay = loop_layout<Step, N, X, Y>;
  static constexpr std::size_t C = lay::C, XE = lay::XE, YE = lay::YE;
  const long steps = r.last - r.first;
  if (steps <= 0) return;
  // Locals only, as in loop_forward: the vjp's inputs (index, c, x, ct_c, ct_y) and
  // outputs (ct_c, ct_x).
  V vin[1 + 2 * C + XE + YE], vout[C + XE];
  each<C>([&](std::size_t f) { vin[1 + C + XE + f] = ct[f]; });
  masked_or_not<V>(r, [&]<bool Masked>(std::bool_constant<Masked>) {
    [[maybe_unused]] V* saved = nullptr;
    if constexpr (!FromKept) {
      thread_local std::vector<V> buffer;
      const std::size_t size = static_cast<std::size_t>(steps) * Store.count;
      if (buffer.size() < size) buffer.resize(size);
      saved = buffer.data();
      V in[1 + C + XE], next[C + YE];
      each<C>([&](std::size_t f) { in[1 + f] = c0[f]; });
      for (long s = 0;; ++s) {
        const auto u = static_cast<std::size_t>(s);
        each_carry_element<lay, N, Store>([&](std::size_t f, int slot) {
          if (slot >= 0) saved[u * Store.count + static_cast<std::size_t>(slot)] = in[1 + f];
        });
        if (s + 1 == steps) break;  // the last step's result is not needed (a checkpoint: no step)
        in[0] = V(static_cast<T>(r.first + s));
        if constexpr (reads_inputs_in_place(Step)) {
          evaluate_reading<Step>(step_reads<lay, V>{in, xs, u}, next);  // loop_forward's step
        } else {
          gather_step_inputs<lay, X, 1 + C>(in, xs, u);
          evaluate_values<Step>(in, next);
        }
        advance<Masked, C>(in + 1, next, in[0], lo, hi);
      }
    }
    for (long s = steps; s-- > 0;) {
      const auto u = static_cast<std::size_t>(s);
      vin[0] = V(static_cast<T>(r.first + s));
      each_carry_element<lay, N, Store>([&](std::size_t f, int slot) {
        if (slot < 0)
          vin[1 + f] = c0[f];
        else if constexpr (FromKept)
          vin[1 + f] = kept[u * Store.count + static_cast<std::size_t>(slot)];
        else
          vin[1 + f] = saved[u * Store.count + static_cast<std::size_t>(slot)];
      });
      if constexpr (reads_inputs_in_place(Vjp)) {
        evaluate_reading<Vjp>(vjp_step_reads<lay, V>{vin, xs, ct_ys, u}, vout);
      } else {
        gather_step_inputs<lay, X, 1 + C>(vin, xs, u);
        each_element<Y, lay::y_size>([&](auto k, auto e) {
          vin[1 + 2 * C + XE + entry<lay::y_at>(k) + e] = ct_ys[k][u * entry<lay::y_size>(k) + e];
        });
        evaluate_values<Vjp>(vin, vout);
      }
      advance<Masked, C>(vin + 1 + C + XE, vout, vin[0], lo, hi);
      each_element<X, lay::x_size>([&](auto k, auto e) {
        out.set(C + L * entry<lay::x_at>(k) + u * entry<lay::x_size>(k) + e, vout[C + entry<lay::x_at>(k) + e]);
      });
    }
  });
  each<C>([&](std::size_t f) { ct[f] = vin[1 + C + XE + f]; });
}

/// Runs step program `Step` on the flat carries `c` (N values) while program `Cond`
/// (carries in, 1 or 0 out) gives 1. On batches, until every lane's condition is 0: a lane
/// that is done keeps its carry while the others go on.
template <const auto& Cond, const auto& Step, std::size_t N, class V>
void while_forward(V* c) {
  static constexpr std::size_t C = loop_layout<Step, N, 0, 0>::C;
  V in[1 + C], out[C], go[1];  // locals only, as in loop_forward
  in[0] = V(0);
  each<C>([&](std::size_t f) { in[1 + f] = c[f]; });
  evaluate_values<Cond>(in + 1, go);
  if constexpr (std::is_floating_point_v<V>) {
    while (go[0] != V(0)) {
      evaluate_values<Step>(in, out);
      each<C>([&](std::size_t f) { in[1 + f] = out[f]; });
      evaluate_values<Cond>(in + 1, go);
    }
  } else {
    auto active = go[0] != V(0);
    while (xsimd::any(active)) {
      evaluate_values<Step>(in, out);
      each<C>([&](std::size_t f) { in[1 + f] = xsimd::select(active, out[f], in[1 + f]); });
      evaluate_values<Cond>(in + 1, go);
      active = active & (go[0] != V(0));
    }
  }
  each<C>([&](std::size_t f) { c[f] = in[1 + f]; });
}

/// The number of steps `while_forward` takes from the flat carries `c` (left as they are):
/// on batches, each lane's own count, the bound of the reverse loop that runs them back
/// (calx/while_loop.hpp, `while_rules::vjp_ids`).
template <const auto& Cond, const auto& Step, std::size_t N, class V>
V while_steps(const V* c) {
  static constexpr std::size_t C = loop_layout<Step, N, 0, 0>::C;
  V in[1 + C], out[C], go[1];  // locals only, as in loop_forward
  in[0] = V(0);
  each<C>([&](std::size_t f) { in[1 + f] = c[f]; });
  evaluate_values<Cond>(in + 1, go);
  V steps(0);
  if constexpr (std::is_floating_point_v<V>) {
    while (go[0] != V(0)) {
      evaluate_values<Step>(in, out);
      each<C>([&](std::size_t f) { in[1 + f] = out[f]; });
      evaluate_values<Cond>(in + 1, go);
      steps += V(1);
    }
  } else {
    auto active = go[0] != V(0);
    while (xsimd::any(active)) {
      evaluate_values<Step>(in, out);
      each<C>([&](std::size_t f) { in[1 + f] = xsimd::select(active, out[f], in[1 + f]); });
      steps = xsimd::select(active, steps + V(1), steps);
      evaluate_values<Cond>(in + 1, go);
      active = active & (go[0] != V(0));
    }
  }
  return steps;
}

/// A loop op's results kernels over `NI` operands: `kernel(in, out)` with lane_values of
/// numbers (one sample) or of the op's SIMD batches (a group of `lanes` samples; a group of
/// another width, an executor built for another architecture, runs lane by lane).
template <class T, std::size_t NI, class Kernel>
void run_results(const Kernel& kernel, const T* const* in, T* out) {
  std::array<lane_values<T>, NI> args{};
  for (std::size_t i = 0; i < NI; ++i) args[i].at = const_cast<T*>(in[i]);
  kernel(args, lane_values<T>{out, 1, false});
}
template <class T, std::size_t NI, class Kernel>
void run_results_lanes(const Kernel& kernel, const T* const* in, const bool* batched, T* out, int lanes) {
  using B = xsimd::batch<T>;
  if (lanes == static_cast<int>(B::size)) {
    std::array<lane_values<B>, NI> args{};
    for (std::size_t i = 0; i < NI; ++i) args[i] = {const_cast<T*>(in[i]), 1, batched[i]};
    kernel(args, lane_values<B>{out, 1, true});
    return;
  }
  const auto n = static_cast<std::size_t>(lanes);
  for (std::size_t l = 0; l < n; ++l) {
    std::array<lane_values<T>, NI> args{};
    for (std::size_t i = 0; i < NI; ++i)
      args[i] = batched[i] ? lane_values<T>{const_cast<T*>(in[i]) + l, n, false} : lane_values<T>{const_cast<T*>(in[i]), 1, false};
    kernel(args, lane_values<T>{out + l, n, false});
  }
}

}  // namespace detail
CALX_END_NAMESPACE

#endif  // CALX_DETAIL_EXEC_LOOP_KERNELS_HPP
