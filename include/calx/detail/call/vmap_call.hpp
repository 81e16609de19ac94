/// @file detail/call/vmap_call.hpp
/// @brief The executable vmap: `f` traced per sample, batched by the batch pass, run by the
/// SIMD executor over the caller's arguments, into results calx allocates or buffers the
/// caller gives (`.into`), on one or more threads, for the default or a chosen xsimd arch;
/// or, over calx::device_span arguments, by the device executor as a CUDA kernel on the
/// caller's stream (`.on`).
#ifndef CALX_DETAIL_CALL_VMAP_CALL_HPP
#define CALX_DETAIL_CALL_VMAP_CALL_HPP

#include <calx/detail/internal_header_check.hpp>

#include <calx/detail/call/batch_inputs.hpp>
#include <calx/detail/call/batch_outputs.hpp>
#include <calx/detail/call/run.hpp>
#include <calx/detail/call/transform_support.hpp>
#include <calx/detail/call/vmap_spec.hpp>
#include <calx/detail/diagnostics.hpp>
#include <calx/detail/exec/device_executor.hpp>
#include <calx/detail/exec/device_memory.hpp>
#include <calx/detail/exec/simd_executor.hpp>
#include <calx/detail/passes/expand.hpp>
#include <calx/detail/passes/sources.hpp>
#include <calx/device_span.hpp>
#include <calx/tracer.hpp>
#include <calx/tree.hpp>

#include <xsimd/xsimd.hpp>

#include <array>
#include <cstddef>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>

CALX_BEGIN_NAMESPACE
namespace detail {

/// vmap's result for per-sample output `Out`: one result per element of a returned tuple or
/// pair, each with its out_axes entry (see detail/call/batch_outputs.hpp).
template <class Out, class L, class Batch, class OAx, bool PerElement = (top_count<Out>() > 1)>
struct vmap_result {
  using type = typename result_of<Out, L, Batch, OAx::axes[0] == none>::type;
  template <class D>
  static constexpr bool accepts = dest_matches<Out, L, D, OAx::axes[0] == none>();
  template <class D>
  static constexpr std::size_t stride = column_stride<Out, L, D, OAx::axes[0] == none>();
  template <class D>
  static CALX_INLINE void views(D& d, output_view<L>*& out, std::size_t batch) {
    collect_dest<Out, L, OAx::axes[0] == none>(d, out, batch, "calx::vmap");
  }
};
// std::tuple<Element<I>...>, or the pair of Element<0> and Element<1>. A class, not a lambda
// in decltype: clang 14 crashes reading such a type alias back from a precompiled header.
template <template <std::size_t> class Element, class Seq, bool Pair>
struct tuple_of_elements;
template <template <std::size_t> class Element, std::size_t... I>
struct tuple_of_elements<Element, std::index_sequence<I...>, false> {
  using type = std::tuple<Element<I>...>;
};
template <template <std::size_t> class Element>
struct tuple_of_elements<Element, std::index_sequence<0, 1>, true> {
  using type = std::pair<Element<0>, Element<1>>;
};
template <class Out, class L, class Batch, class OAx>
struct vmap_result<Out, L, Batch, OAx, true> {
  template <std::size_t I>
  using element = typename result_of<std::tuple_element_t<I, Out>, L, Batch, OAx::axes[I] == none>::type;
  using type = typename tuple_of_elements<element, std::make_index_sequence<std::tuple_size_v<Out>>,
                                          requires { typename Out::first_type; }>::type;
  template <class D>
  static constexpr bool accepts = [] {
    using DD = std::remove_cvref_t<D>;
    if constexpr (!requires { std::tuple_size<DD>::value; }) {
      return false;
    } else if constexpr (std::tuple_size_v<DD> != std::tuple_size_v<Out>) {
      return false;
    } else {
      return []<std::size_t... I>(std::index_sequence<I...>) {
        return (dest_matches<std::tuple_element_t<I, Out>, L, std::tuple_element_t<I, DD>, OAx::axes[I] == none>() && ...);
      }(std::make_index_sequence<std::tuple_size_v<Out>>{});
    }
  }();
  template <class D>
  static constexpr std::size_t stride = []<std::size_t... I>(std::index_sequence<I...>) {
    std::size_t s = no_column;
    ((s = common_stride(s, column_stride<std::tuple_element_t<I, Out>, L, std::tuple_element_t<I, std::remove_cvref_t<D>>,
                                         OAx::axes[I] == none>())),
     ...);
    return s;
  }(std::make_index_sequence<std::tuple_size_v<Out>>{});
  template <class D>
  static CALX_INLINE void views(D& d, output_view<L>*& out, std::size_t batch) {
    [&]<std::size_t... I>(std::index_sequence<I...>) CALX_INLINE_LAMBDA {
      (collect_dest<std::tuple_element_t<I, Out>, L, OAx::axes[I] == none>(std::get<I>(d), out, batch, "calx::vmap"),
       ...);
    }(std::make_index_sequence<std::tuple_size_v<Out>>{});
  }
};

/// A column stride the executor can take as a constant: 0 (read at run time) where the
/// columns differ or there are none.
constexpr std::size_t known_stride(std::size_t s) { return s == no_column ? 0 : s; }

/// The destination of a vmap that allocates its results.
struct no_dest {};

/// Whether a temporary destination writes memory that outlives the call: views and
/// references do, owning containers (a temporary std::vector) do not.
template <class T>
constexpr bool is_view_dest() {
  if constexpr (std::is_lvalue_reference_v<T> || std::is_arithmetic_v<T>)
    return std::is_lvalue_reference_v<T>;
  else if constexpr (requires { typename T::element_type; T::extent; } || is_device_span_v<T>)  // std::span
    return true;
  else if constexpr (is_tuple_like_node_v<T>)
    return []<std::size_t... I>(std::index_sequence<I...>) {
      return (is_view_dest<std::tuple_element_t<I, T>>() && ...);
    }(std::make_index_sequence<std::tuple_size_v<T>>{});
  else
    return false;
}

/// The thread count `n` of `.threads(n)`, checked: 0 means one per core.
inline unsigned checked_thread_count(long long n) {
  if (n < 0)
    invalid_argument("calx::vmap: .threads(" + std::to_string(n) +
                     "): the thread count must be 0 (one thread per core) or positive");
  return static_cast<unsigned>(n);
}

template <class F, class InAxes, class OutAxes, class Holder, class Arch>
struct vmap_call {
  unsigned thread_count = 1;
  Holder out{};
  stream_handle stream = nullptr;

  /// Runs on up to `n` threads (0: one per core). Results do not depend on `n`. A negative
  /// `n` throws std::invalid_argument. (A vmap over device memory runs one CUDA thread per
  /// sample and ignores `n`.)
  vmap_call threads(std::integral auto n) const {
    return {checked_thread_count(static_cast<long long>(n)), out, stream};
  }

  /// Over device memory: queues the kernel on CUDA stream `s` (a cudaStream_t; nullptr, the
  /// default, is the default stream).
  template <class S>
  constexpr auto on(S s) const {
    constexpr bool ok = std::is_pointer_v<S> || std::is_null_pointer_v<S>;
    static_assert(ok, CALX_MSG_DEVICE_STREAM);
    if constexpr (ok)
      return vmap_call{thread_count, out, static_cast<stream_handle>(s)};
    else
      return invalid_program{};
  }

  /// Writes into `o` (the result's structure: see docs/vmap.md) instead of allocating. A named
  /// destination is kept by address; a temporary view (`std::span(buffer)`, a tuple of spans
  /// and references) by value.
  template <class O>
  constexpr auto into(O&& o) const {
    constexpr bool kept = std::is_lvalue_reference_v<O> || is_view_dest<std::remove_cvref_t<O>>();
    static_assert(kept, CALX_MSG_INTO_TEMPORARY);
    if constexpr (std::is_lvalue_reference_v<O>)
      return vmap_call<F, InAxes, OutAxes, std::remove_reference_t<O>*, Arch>{thread_count, &o, stream};
    else if constexpr (kept)
      return vmap_call<F, InAxes, OutAxes, std::remove_cvref_t<O>, Arch>{thread_count, std::forward<O>(o), stream};
    else
      return invalid_program{};
  }

  /// The loop compiled for xsimd architecture `A`, given as a value like xsimd::dispatch
  /// passes it to its functor (see docs/vmap.md).
  template <class A>
  constexpr vmap_call<F, InAxes, OutAxes, Holder, A> arch(A) const {
    return {thread_count, out, stream};
  }

  template <class... A>
  CALX_INLINE auto operator()(const A&... a) const {
    using Ax = axes_info<InAxes, sizeof...(A)>;
    static_assert(Ax::ok, CALX_MSG_IN_AXES);
    static_assert(!Ax::ok || Ax::any_batched, CALX_MSG_NOTHING_BATCHED);
    if constexpr (Ax::ok && Ax::any_batched) {
      constexpr bool sources_ok = [] {
        std::size_t k = 0;
        return ((Ax::axes[k++] != 0 || batch_source_traits<A>::valid) && ...);
      }();
      constexpr bool broadcast_ok = [] {
        std::size_t k = 0;
        return ((Ax::axes[k++] == 0 || !has_batch_v<A>) && ...);
      }();
      constexpr bool lengths_ok = static_lengths_agree<Ax, A...>();  // std::array batches: known now
      static_assert(sources_ok, CALX_MSG_BATCH_SOURCE);
      static_assert(!sources_ok || broadcast_ok, CALX_MSG_BROADCAST_BATCH);
      static_assert(!sources_ok || !broadcast_ok || lengths_ok, CALX_MSG_STATIC_LENGTHS);
      constexpr bool memory_ok = sources_ok && broadcast_ok && lengths_ok && memory_checked<Ax, A...>();
      if constexpr (memory_ok)
        return run<Ax>(std::make_index_sequence<sizeof...(A)>{}, a...);
      else
        return invalid_program{};
    } else {
      return invalid_program{};
    }
  }

 private:
  /// The destination as the caller gave it (by address or as a copied view).
  constexpr auto& dest() const {
    if constexpr (std::is_pointer_v<Holder>)
      return *out;
    else
      return out;
  }

  /// Whether the batches and the destination are all in one memory: the host's, or the
  /// device's (calx::device_span), with a device backend compiled in. One message for the
  /// first thing wrong.
  template <class Ax, class... A>
  static constexpr bool memory_checked() {
    constexpr unsigned batches = [] {
      std::size_t k = 0;
      unsigned m = 0;
      ((m |= Ax::axes[k++] == 0 ? (is_device_span_v<A> ? 2u : 1u) : 0u), ...);
      return m;
    }();
    constexpr bool device = (batches & 2u) != 0;
    constexpr unsigned dest = [] {
      if constexpr (std::is_same_v<Holder, no_dest>)
        return 0u;
      else
        return dest_memory<std::remove_pointer_t<Holder>>();
    }();
    constexpr bool mixed = batches == 3u;
    constexpr bool backend = !device || device_backend != device_kind::none;
    constexpr bool into = !device || !std::is_same_v<Holder, no_dest>;
    constexpr bool dest_ok = (dest & (device ? 1u : 2u)) == 0;
    static_assert(!mixed, CALX_MSG_DEVICE_MIXED);
    static_assert(mixed || backend, CALX_MSG_DEVICE_BACKEND);
    static_assert(mixed || !backend || into, CALX_MSG_DEVICE_INTO);
    static_assert(mixed || !backend || !into || dest_ok, CALX_MSG_DEVICE_DEST);
    return !mixed && backend && into && dest_ok;
  }

  template <class Ax, std::size_t... K, class... A>
  CALX_INLINE auto run(std::index_sequence<K...>, const A&... a) const {
    using S = std::tuple<typename sample_of<Ax::axes[K], A>::type...>;
    return run_samples<Ax, std::tuple_element_t<K, S>...>(a...);
  }

  template <class Ax, class... E, class... A>
  CALX_INLINE auto run_samples(const A&... a) const {
    if constexpr (diagnose_arguments<E...>() && diagnose_traceable<F, rebind_t<E, tracer>...>()) {
      using C = traced_call<F, E...>;
      using L = typename C::leaf;
      using Out = typename C::output_tree;
      using OAx = axes_info<OutAxes, top_count<Out>()>;
      static_assert(OAx::ok, CALX_MSG_OUT_AXES);
      if constexpr (OAx::ok) {
        using Program = batch_source<typename C::source, batched_inputs<Ax, E...>>;
        static_assert(outputs_ok<Program, out_spec<Out, OAx>>(), CALX_MSG_OUT_AXES_NONE);
        using Result = vmap_result<Out, L, batch_of<static_extent<Ax, A...>()>, OAx>;
        // Inputs: batched arguments as per-leaf strided views, broadcast ones as values.
        std::array<input_view<L>, C::inputs == 0 ? 1 : C::inputs> in;
        input_view<L>* ip = in.data();
        batch_length len;
        [&]<std::size_t... K>(std::index_sequence<K...>) CALX_INLINE_LAMBDA {
          auto add = [&]<std::size_t J>(std::integral_constant<std::size_t, J>, const auto& x) CALX_INLINE_LAMBDA {
            if constexpr (Ax::axes[J] == 0) {
              len.add(std::size(x), static_cast<int>(J), "calx::vmap");
              collect_element_views<L>(std::size(x) == 0 ? nullptr : std::data(x), ip);
            } else {
              collect_views<L>(x, ip, len, static_cast<int>(J), "calx::vmap");
            }
          };
          (add(std::integral_constant<std::size_t, K>{}, a), ...);
        }(std::index_sequence_for<A...>{});
        const std::size_t batch = len.size;
        std::array<output_view<L>, C::outputs == 0 ? 1 : C::outputs> ov;
        output_view<L>* op = ov.data();
        constexpr bool device = (is_device_span_v<A> || ...);
        using Run = batch_executor<lowered_t<Program, xsimd::batch<L, Arch>>, L, Arch>;
        using Device = lowered_t<Program, xsimd::batch<L, Arch>>;  // built-in ops only, or reported
        if constexpr (device) {
          if constexpr (!device_kernels_found<Device>()) {
            report_op_without_device_kernel<Device>();
          } else {
            auto& d = dest();
            static_assert(Result::template accepts<decltype(d)>, CALX_MSG_INTO_STRUCTURE);
            if constexpr (Result::template accepts<decltype(d)>) {
              Result::views(d, op, batch);
              device_executor<Device, L>::run(in.data(), ov.data(), batch, stream, "calx::vmap");
            }
          }
        } else if constexpr (std::is_same_v<Holder, no_dest>) {
          typename Result::type result{};
          resize_results(result, batch);
          Result::views(result, op, batch);
          Run::template run<known_stride(Result::template stride<typename Result::type>)>(in.data(), ov.data(), batch,
                                                                                        thread_count);
          return result;
        } else {
          // A named destination, or a copied view (writing through it writes the caller's memory).
          auto& d = dest();
          static_assert(Result::template accepts<decltype(d)>, CALX_MSG_INTO_STRUCTURE);
          if constexpr (Result::template accepts<decltype(d)>) {
            Result::views(d, op, batch);
            Run::template run<known_stride(Result::template stride<decltype(d)>)>(in.data(), ov.data(), batch,
                                                                                thread_count);
          }
        }
      } else {
        return invalid_program{};
      }
    } else {
      return tracing_failed<F, rebind_t<E, tracer>...>();
    }
  }

  template <class Program, class Spec>
  static constexpr bool outputs_ok() {
    constexpr const auto& r = materialized<Program>::value;
    for (std::size_t o = 0; o < r.outputs.size(); ++o)
      if (Spec::template unbatched<double>(r.output_offset[o]) && r.nodes[r.outputs[o]].batched) return false;  // flat positions
    return true;
  }
};

}  // namespace detail
CALX_END_NAMESPACE

#endif // CALX_DETAIL_CALL_VMAP_CALL_HPP
