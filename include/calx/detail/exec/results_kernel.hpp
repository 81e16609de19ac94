/// @file detail/exec/results_kernel.hpp
/// @brief The kernels of ops that compute their results together (loops, reverse loops,
/// while loops and their trip counts, conds and checkpoints), compiled from the constants of the op's descriptor
/// (`results_kernel_info`) where code generation meets the op: `results_kernel<R, T>` for one
/// sample, `results_kernel_lanes<R, T>` for a SIMD group. An op's descriptor takes no
/// kernel's address, so an op no generated program runs (a derivative loop that nothing
/// differentiates) compiles no code, and a program compiles its own value type's kernel only.
/// The sub-programs are typed copies of the descriptor's views (`program_copy`), so the
/// loop kernels of detail/exec/loop_kernels.hpp run on them as they are.
#ifndef CALX_DETAIL_EXEC_RESULTS_KERNEL_HPP
#define CALX_DETAIL_EXEC_RESULTS_KERNEL_HPP

#include <calx/detail/internal_header_check.hpp>

#include <calx/detail/exec/evaluate.hpp>
#include <calx/detail/exec/loop_kernels.hpp>
#include <calx/detail/ir/ir.hpp>
#include <calx/detail/ir/op_info.hpp>

#include <array>
#include <cstddef>
#include <type_traits>

CALX_BEGIN_NAMESPACE
namespace detail {

/// A typed copy of the carry store `Store()` views.
template <auto Store>
struct store_copy {
  static constexpr store_view v = Store();
  static constexpr carry_store<v.carries> value = [] {
    carry_store<v.carries> s{};
    for (std::size_t k = 0; k < v.carries; ++k) s.first[k] = v.first[k];
    s.count = v.count;
    return s;
  }();
};

/// The constants of op `R`'s kernel.
template <op_ref R>
struct kernel_constants {
  static constexpr results_kernel_info k = *R().extra().results;
  static constexpr std::size_t N = k.n, X = k.x, Y = k.y, L = k.l;
  /// How many operands the op has.
  static constexpr std::size_t arity = [] {
    switch (k.kind) {
      case results_kind::loop: return loop_slots<N, X, Y, k.kept>::arity;
      case results_kind::loop_vjp: return loop_slots<N, X, Y, k.kept>::vjp_arity;
      case results_kind::while_loop:
      case results_kind::while_count: return N;
      case results_kind::branch: break;
    }
    return std::size_t{0};  // a branch op reads its operands as pointers (`run_branch`)
  }();
};

/// Sub-program K of op `R` for values `V` (numbers, or SIMD batches).
template <op_ref R, int K, class V>
inline constexpr const auto& sub_program =
    program_copy<kernel_constants<R>::k.program, K, !std::is_floating_point_v<V>>::value;

/// The loop: N carries and X per-step inputs in, the final carries, Y stacked per-step
/// outputs (and the kept carries) out.
template <op_ref R, class V>
void run_loop(const std::array<lane_values<V>, kernel_constants<R>::arity>& in, const lane_values<V>& out) {
  using c = kernel_constants<R>;
  constexpr std::size_t N = c::N, X = c::X, Y = c::Y, L = c::L;
  using at = loop_slots<N, X, Y, c::k.kept>;
  constexpr const auto& step = sub_program<R, 0, V>;
  using lay = loop_layout<step, N, X, Y>;
  V carry[lay::C];
  gather_carries<lay, N, 0>(carry, in.data() + at::c);
  const V lo = trip_bound(in[at::lower][0]), hi = trip_bound(in[at::upper][0]);
  loop_forward<step, N, X, Y, L, c::k.kept, store_copy<c::k.store>::value>(carry, in.data() + at::x, out,
                                                                           trip_range_of(lo, hi), lo, hi);
  each<lay::C>([&](std::size_t f) { out.set(f, carry[f]); });
}

/// The reverse loop: the cotangents of the carries and of the per-step inputs, from the
/// kept carries (`kept`) or a forward pass of its own.
template <op_ref R, class V>
void run_loop_vjp(const std::array<lane_values<V>, kernel_constants<R>::arity>& in, const lane_values<V>& out) {
  using c = kernel_constants<R>;
  constexpr std::size_t N = c::N, X = c::X, Y = c::Y, L = c::L;
  using at = loop_slots<N, X, Y, c::k.kept>;
  constexpr const auto& step = sub_program<R, 0, V>;
  using lay = loop_layout<step, N, X, Y>;
  V c0[lay::C], ct[lay::C];
  gather_carries<lay, N, 0>(c0, in.data() + at::c);
  gather_carries<lay, N, 0>(ct, in.data() + at::ct_c);
  const V lo = trip_bound(in[at::lower][0]), hi = trip_bound(in[at::upper][0]);
  loop_backward<step, sub_program<R, 1, V>, N, X, Y, L, c::k.kept, store_copy<c::k.store>::value>(
      c0, in.data() + at::x, in[at::kept].from(lay::C + L * lay::YE), ct, in.data() + at::ct_y, out,
      trip_range_of(lo, hi), lo, hi);
  each<lay::C>([&](std::size_t f) { out.set(f, ct[f]); });
}

/// The while loop: N carries in and out.
template <op_ref R, class V>
void run_while(const std::array<lane_values<V>, kernel_constants<R>::arity>& in, const lane_values<V>& out) {
  using c = kernel_constants<R>;
  constexpr const auto& step = sub_program<R, 1, V>;
  using lay = loop_layout<step, c::N, 0, 0>;
  V carry[lay::C];
  gather_carries<lay, c::N, 0>(carry, in.data());
  while_forward<sub_program<R, 0, V>, step, c::N>(carry);
  each<lay::C>([&](std::size_t f) { out.set(f, carry[f]); });
}

/// The trip count of a while loop: N carries in, the number of steps out.
template <op_ref R, class V>
void run_while_steps(const std::array<lane_values<V>, kernel_constants<R>::arity>& in, const lane_values<V>& out) {
  using c = kernel_constants<R>;
  constexpr const auto& step = sub_program<R, 1, V>;
  using lay = loop_layout<step, c::N, 0, 0>;
  V carry[lay::C];
  gather_carries<lay, c::N, 0>(carry, in.data());
  out.set(0, while_steps<sub_program<R, 0, V>, step, c::N>(carry));
}

/// A cond (the predicate first, nonzero: the first program) or a checkpoint (one program):
/// the program taken, on the operands in place, its results to the tuple's values.
template <const auto& P, class T>
void run_program(const T* const* in, T* out) {
  using IRT = std::remove_cvref_t<decltype(P)>;
  std::array<T*, IRT::output_leaves == 0 ? 1 : IRT::output_leaves> o{};
  for (std::size_t k = 0; k < IRT::output_leaves; ++k) o[k] = out + P.output_offset[k];
  evaluate<P>(in, o.data());
}
template <op_ref R, class T>
void run_branch(const T* const* in, T* out) {
  using c = kernel_constants<R>;
  constexpr int branches = c::k.programs;
  constexpr int p = branches > 1 ? 1 : 0;
  const int taken = p == 1 && in[0][0] == T(0) ? 1 : 0;
  static_for<static_cast<std::size_t>(branches)>([&](auto k) {
    if (taken == static_cast<int>(decltype(k)::value))
      run_program<sub_program<R, static_cast<int>(decltype(k)::value), T>>(in + p, out);
  });
}

/// Runs op `R`'s kernel on `lane_values` of numbers or of SIMD batches.
template <op_ref R>
struct run_kernel {
  template <class V>
  void operator()(const std::array<lane_values<V>, kernel_constants<R>::arity>& in, const lane_values<V>& out) const {
    constexpr results_kind kind = kernel_constants<R>::k.kind;
    if constexpr (kind == results_kind::loop)
      run_loop<R>(in, out);
    else if constexpr (kind == results_kind::loop_vjp)
      run_loop_vjp<R>(in, out);
    else if constexpr (kind == results_kind::while_count)
      run_while_steps<R>(in, out);
    else
      run_while<R>(in, out);
  }
};

template <op_ref R, class T>
void results_kernel(const T* const* in, T* out) {
  if constexpr (kernel_constants<R>::k.kind == results_kind::branch)
    run_branch<R>(in, out);
  else
    run_results<T, kernel_constants<R>::arity>(run_kernel<R>{}, in, out);
}

template <op_ref R, class T>
void results_kernel_lanes(const T* const* in, const bool* batched, T* out, int lanes) {
  static_assert(kernel_constants<R>::k.lanes, "calx internal: an op without a SIMD kernel reached SIMD code unexpanded");
  run_results_lanes<T, kernel_constants<R>::arity>(run_kernel<R>{}, in, batched, out, lanes);
}

}  // namespace detail
CALX_END_NAMESPACE

#endif  // CALX_DETAIL_EXEC_RESULTS_KERNEL_HPP
