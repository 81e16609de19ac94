/// @file detail/exec/loop_kernels.hpp
/// @brief The loops codegen emits for calx's loop ops (calx/loop_op.hpp, calx/while_loop.hpp).
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
#include <calx/detail/static_for.hpp>

#include <xsimd/xsimd.hpp>

#include <algorithm>
#include <array>
#include <cstddef>
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
/// in memory).
template <std::size_t N, class F>
CALX_INLINE void each(const F& f) {
  static_for<N>([&](auto k) CALX_INLINE_LAMBDA { f(std::size_t{k}); });
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

/// Runs step program `Step` on carries `c` for indices [r.first, r.last): per-step input k
/// of step s is `xs[k][s]`, output k goes to result element `ys_at + k * L + s` of `out`;
/// with `Keep`, the carries before step s to `keep_at + s * N + k` (the residuals of
/// reverse mode).
template <const auto& Step, std::size_t N, std::size_t X, std::size_t Y, std::size_t L, bool Keep, class V>
void loop_forward(V* c, const lane_values<V>* xs, const lane_values<V>& out, std::size_t ys_at, std::size_t keep_at,
                  const trip_range& r, const V& lo, const V& hi) {
  using T = element_t<V>;
  // The step reads its inputs from `in` and writes `next`, locals whose addresses go
  // nowhere: once inlined, the carries stay in registers from step to step.
  V in[1 + N + X], next[N + Y];
  each<N>([&](std::size_t k) { in[1 + k] = c[k]; });
  masked_or_not<V>(r, [&]<bool Masked>(std::bool_constant<Masked>) {
    for (long i = r.first; i < r.last; ++i) {
      const auto s = static_cast<std::size_t>(i - r.first);
      if constexpr (Keep) each<N>([&](std::size_t k) { out.set(keep_at + s * N + k, in[1 + k]); });
      in[0] = V(static_cast<T>(i));
      each<X>([&](std::size_t k) { in[1 + N + k] = xs[k][s]; });
      evaluate_values<Step>(in, next);
      advance<Masked, N>(in + 1, next, in[0], lo, hi);
      each<Y>([&](std::size_t k) { out.set(ys_at + k * L + s, next[N + k]); });
    }
  });
  each<N>([&](std::size_t k) { c[k] = in[1 + k]; });
}

/// Reverse mode of `loop_forward`: from carries `c0`, per-step inputs `xs`, the final
/// carries' cotangents `ct` and the per-step outputs' `ct_ys`, the cotangents of `c0`
/// (written to `ct`) and of `xs` (to result elements `ct_xs_at + k * L + s` of `out`).
/// The carries of step s are `kept[s * N + k]` when `FromKept` (stored by the forward
/// loop), else those of a forward pass of its own (into the thread's buffer).
template <const auto& Step, const auto& Vjp, std::size_t N, std::size_t X, std::size_t Y, std::size_t L, bool FromKept,
          class V>
void loop_backward(const V* c0, const lane_values<V>* xs, const lane_values<V>& kept, V* ct,
                   const lane_values<V>* ct_ys, const lane_values<V>& out, std::size_t ct_xs_at, const trip_range& r,
                   const V& lo, const V& hi) {
  using T = element_t<V>;
  const long steps = r.last - r.first;
  if (steps <= 0) return;
  // Locals only, as in loop_forward: the vjp's inputs (index, c, x, ct_c, ct_y) and
  // outputs (ct_c, ct_x).
  V vin[1 + 2 * N + X + Y], vout[N + X];
  each<N>([&](std::size_t k) { vin[1 + N + X + k] = ct[k]; });
  masked_or_not<V>(r, [&]<bool Masked>(std::bool_constant<Masked>) {
    [[maybe_unused]] V* saved = nullptr;
    if constexpr (!FromKept) {
      thread_local std::vector<V> buffer;
      if (buffer.size() < static_cast<std::size_t>(steps) * N) buffer.resize(static_cast<std::size_t>(steps) * N);
      saved = buffer.data();
      V in[1 + N + X], next[N + Y];
      each<N>([&](std::size_t k) { in[1 + k] = c0[k]; });
      for (long s = 0;; ++s) {
        const auto u = static_cast<std::size_t>(s);
        each<N>([&](std::size_t k) { saved[u * N + k] = in[1 + k]; });
        if (s + 1 == steps) break;  // the last step's result is not needed (a checkpoint: no step)
        in[0] = V(static_cast<T>(r.first + s));
        each<X>([&](std::size_t k) { in[1 + N + k] = xs[k][u]; });
        evaluate_values<Step>(in, next);
        advance<Masked, N>(in + 1, next, in[0], lo, hi);
      }
    }
    for (long s = steps; s-- > 0;) {
      const auto u = static_cast<std::size_t>(s);
      vin[0] = V(static_cast<T>(r.first + s));
      if constexpr (FromKept)
        each<N>([&](std::size_t k) { vin[1 + k] = kept[u * N + k]; });
      else
        each<N>([&](std::size_t k) { vin[1 + k] = saved[u * N + k]; });
      each<X>([&](std::size_t k) { vin[1 + N + k] = xs[k][u]; });
      each<Y>([&](std::size_t k) { vin[1 + 2 * N + X + k] = ct_ys[k][u]; });
      evaluate_values<Vjp>(vin, vout);
      advance<Masked, N>(vin + 1 + N + X, vout, vin[0], lo, hi);
      each<X>([&](std::size_t k) { out.set(ct_xs_at + k * L + u, vout[N + k]); });
    }
  });
  each<N>([&](std::size_t k) { ct[k] = vin[1 + N + X + k]; });
}

/// Runs step program `Step` on carries `c` while program `Cond` (carries in, 1 or 0 out)
/// gives 1. On batches, until every lane's condition is 0: a lane that is done keeps its
/// carry while the others go on.
template <const auto& Cond, const auto& Step, std::size_t N, class V>
void while_forward(V* c) {
  V in[1 + N], out[N], go[1];  // locals only, as in loop_forward
  in[0] = V(0);
  each<N>([&](std::size_t k) { in[1 + k] = c[k]; });
  evaluate_values<Cond>(in + 1, go);
  if constexpr (std::is_floating_point_v<V>) {
    while (go[0] != V(0)) {
      evaluate_values<Step>(in, out);
      each<N>([&](std::size_t k) { in[1 + k] = out[k]; });
      evaluate_values<Cond>(in + 1, go);
    }
  } else {
    auto active = go[0] != V(0);
    while (xsimd::any(active)) {
      evaluate_values<Step>(in, out);
      each<N>([&](std::size_t k) { in[1 + k] = xsimd::select(active, out[k], in[1 + k]); });
      evaluate_values<Cond>(in + 1, go);
      active = active & (go[0] != V(0));
    }
  }
  each<N>([&](std::size_t k) { c[k] = in[1 + k]; });
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
