/// @file detail/call/batched_call.hpp
/// @brief Running a derived program on arguments that hold runtime batches
/// (std::vector / std::span of numbers or of structures): inputs become views, results are
/// built with a `calx::batched<T>` column wherever a value is per sample.
#ifndef CALX_DETAIL_CALL_BATCHED_CALL_HPP
#define CALX_DETAIL_CALL_BATCHED_CALL_HPP

#include <calx/detail/internal_header_check.hpp>

#include <calx/batched.hpp>
#include <calx/detail/call/batch_inputs.hpp>
#include <calx/detail/call/batch_outputs.hpp>
#include <calx/detail/call/batch_results.hpp>
#include <calx/detail/call/run.hpp>
#include <calx/detail/call/transform_support.hpp>
#include <calx/detail/diagnostics.hpp>
#include <calx/detail/exec/device_executor.hpp>
#include <calx/detail/exec/device_ir.hpp>
#include <calx/detail/exec/device_memory.hpp>
#include <calx/detail/exec/plan.hpp>
#include <calx/detail/exec/simd_executor.hpp>
#include <calx/device_span.hpp>

#include <xsimd/xsimd.hpp>

#include <array>
#include <cstddef>
#include <tuple>
#include <utility>

CALX_BEGIN_NAMESPACE
namespace detail {

/// Output views of a result structure (the traced output `Spec` with number or column
/// leaves): each leaf of `r` is a column (something with data() and size()) of numbers or of
/// structures (a gradient with respect to a batch of them: one strided view per leaf of the
/// sample), or a number.
template <class Spec, class L, class R>
void collect_leaf_outputs(R& r, output_view<L>*& out, std::size_t batch, const char* api) {
  for_each_leaf(r, [&](auto& leaf) {
    if constexpr (requires { leaf.data(); leaf.size(); }) {
      if (leaf.size() != batch) wrong_output_length(leaf.size(), batch, api);
      sample_columns<L>(leaf.data(), batch, out);
    } else {
      (out++)->scalar = &leaf;
    }
  });
}

/// Sizes every runtime column of a result structure to the batch.
template <class R>
void resize_columns(R& r, std::size_t batch) {
  for_each_leaf(r, [&](auto& leaf) {
    if constexpr (requires { leaf.resize(batch); }) leaf.resize(batch);
  });
}

/// Whether argument structure `A` holds a batch in device memory (a calx::device_span leaf).
template <class A>
constexpr bool has_device_batch() {
  if constexpr (is_device_span_v<A>)
    return true;
  else if constexpr (!has_batch_v<A> || !structure<A>)
    return false;
  else
    return []<std::size_t... I>(std::index_sequence<I...>) {
      return (has_device_batch<child_t<A, I>>() || ...);
    }(std::make_index_sequence<children_of<A>()>{});
}

template <class Program, class Spec, class Result, class L, bool Device, class... Args>
Result run_batched(const char* api, const Args&... args);

// batched_call (declared in batch_results.hpp).
template <class Program, class Spec, class Result, class L, class... Args>
Result batched_call(const char* api, const Args&... args) {
  constexpr bool device = (has_device_batch<Args>() || ...);
  if constexpr (unchecked_plan<lowered_t<Program, xsimd::batch<L>>>.two_pass) {
    [[maybe_unused]] constexpr int two_passes = report_two_pass<lowered_t<Program, xsimd::batch<L>>>();
    return Result{};
  } else if constexpr (device) {
    // Over device memory (docs/cuda.md): per-sample results are calx::device_vectors, sums
    // over the batch numbers on the host, on the default stream.
    constexpr bool mixed = ((has_batch_v<Args> && !has_device_batch<Args>()) || ...);
    constexpr bool backend = device_backend != device_kind::none;
    constexpr bool columns = (dest_memory<Result>() & 1u) == 0;
    static_assert(!mixed, CALX_MSG_DEVICE_MIXED);
    static_assert(mixed || backend, CALX_MSG_DEVICE_BACKEND);
    static_assert(mixed || !backend || columns, CALX_MSG_DEVICE_RESULTS);
    using Lowered = lowered_t<Program, xsimd::batch<L>>;
    if constexpr (!mixed && backend && columns && !device_kernels_found<Lowered>()) {
      report_op_without_device_kernel<Lowered>();
      return Result{};
    } else if constexpr (mixed || !backend || !columns) {
      return Result{};
    } else {
      return run_batched<Program, Spec, Result, L, true>(api, args...);
    }
  } else {
    return run_batched<Program, Spec, Result, L, false>(api, args...);
  }
}

/// batched_call's run, on the host's SIMD executor or on the device.
template <class Program, class Spec, class Result, class L, bool Device, class... Args>
Result run_batched(const char* api, const Args&... args) {
  constexpr bool device = Device;
  constexpr std::size_t ni = (std::size_t{0} + ... + leaf_count_v<Args>);
  std::array<input_view<L>, ni == 0 ? 1 : ni> in{};
  input_view<L>* ip = in.data();
  batch_length len;
  int k = 0;
  ((collect_views<L>(args, ip, len, k++, api)), ...);
  Result r{};
  resize_columns(r, len.size);
  std::array<output_view<L>, leaf_count_v<Spec> == 0 ? 1 : leaf_count_v<Spec>> out{};
  output_view<L>* op = out.data();
  collect_leaf_outputs<Spec, L>(r, op, len.size, api);
  using Lowered = lowered_t<Program, xsimd::batch<L>>;
  if constexpr (device)
    device_executor<Lowered, L>::run(in.data(), out.data(), len.size, nullptr, api);
  else
    batch_executor<Lowered, L, xsimd::default_arch>::run(in.data(), out.data(), len.size, 1);
  return r;
}

}  // namespace detail
CALX_END_NAMESPACE

#endif // CALX_DETAIL_CALL_BATCHED_CALL_HPP
