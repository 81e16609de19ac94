/// @file detail/call/vmap_traced.hpp
/// @brief `vmap(f)` called inside a function another transform traces: over a std::array
/// batch it applies `f` per element at trace time; over a runtime batch (a batched traced
/// value) it inlines `f`'s per-sample program (see docs/vmap.md: `f` never sees the batch,
/// so calx::sum inside `f` does not sum over it).
#ifndef CALX_DETAIL_CALL_VMAP_TRACED_HPP
#define CALX_DETAIL_CALL_VMAP_TRACED_HPP

#include <calx/detail/internal_header_check.hpp>

#include <calx/detail/call/batch_outputs.hpp>
#include <calx/detail/call/late_call.hpp>
#include <calx/detail/call/transform_support.hpp>
#include <calx/detail/call/vmap_spec.hpp>
#include <calx/detail/diagnostics.hpp>
#include <calx/detail/runtime_error.hpp>
#include <calx/detail/tensor/ir_ops.hpp>
#include <calx/ops/reduction.hpp>
#include <calx/tracer.hpp>
#include <calx/tree.hpp>

#include <array>
#include <cstddef>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

CALX_BEGIN_NAMESPACE
namespace detail {

template <class F, class InAxes, class OutAxes>
struct vmap_traced {
  template <class... A>
  static constexpr auto call(const A&... a) {
    using Ax = axes_info<InAxes, sizeof...(A)>;
    static_assert(Ax::ok, CALX_MSG_IN_AXES);
    static_assert(!Ax::ok || Ax::any_batched, CALX_MSG_NOTHING_BATCHED);
    // A std::array of batch_tracers is a runtime batch of arrays (the batch is the leading
    // axis, as for every batch argument), not a compile-time batch.
    constexpr bool static_batch = [] {
      std::size_t k = 0;
      bool any = false;
      ((any = any || (Ax::axes[k++] == 0 && is_std_array_v<A> && !has_batch_v<A>)), ...);
      return any;
    }();
    if constexpr (Ax::ok && Ax::any_batched) {
      if constexpr (static_batch)
        return map_static<Ax>(std::index_sequence_for<A...>{}, a...);
      else
        return map_runtime<Ax>(a...);
    } else {
      return invalid_program{};
    }
  }

 private:
  /// Argument K for sample i: its element when batched, itself when broadcast.
  template <class Ax, std::size_t K, class X>
  static constexpr const auto& pick(const X& x, std::size_t i) {
    if constexpr (Ax::axes[K] == 0)
      return x[i];
    else
      return x;
  }

  /// Per-sample results as vmap returns them (detail/call/batch_outputs.hpp): tuples and
  /// pairs split, anything else one per sample.
  template <class Out, std::size_t N>
  static constexpr auto stack(const std::array<Out, N>& s) {
    if constexpr (is_tuple_like_node_v<Out>) {
      return [&]<std::size_t... I>(std::index_sequence<I...>) {
        auto element = [&]<std::size_t E>(std::integral_constant<std::size_t, E>) {
          std::array<std::tuple_element_t<E, Out>, N> e{};
          for (std::size_t i = 0; i < N; ++i) e[i] = std::get<E>(s[i]);
          return stack(e);
        };
        if constexpr (requires { typename Out::first_type; })
          return std::pair{element(std::integral_constant<std::size_t, 0>{}), element(std::integral_constant<std::size_t, 1>{})};
        else
          return std::tuple{element(std::integral_constant<std::size_t, I>{})...};
      }(std::make_index_sequence<std::tuple_size_v<Out>>{});
    } else {
      return s;
    }
  }

  /// A compile-time batch (std::array) inside a traced function: f applied per element.
  template <class Ax, std::size_t... K, class... A>
  static constexpr auto map_static(std::index_sequence<K...>, const A&... a) {
    constexpr std::size_t N = static_extent<Ax, A...>();
    static_assert(N != std::dynamic_extent, CALX_MSG_STATIC_LENGTHS);
    if constexpr (N != std::dynamic_extent) {
      auto sample = [&](std::size_t i) { return make_stateless<F>()(pick<Ax, K>(a, i)...); };
      using Out = std::remove_cvref_t<decltype(sample(0))>;
      std::array<Out, N> samples{};
      for (std::size_t i = 0; i < N; ++i) samples[i] = sample(i);
      return stack(samples);
    } else {
      return invalid_program{};
    }
  }

  static constexpr void refuse_unbatched_argument(bool now) {
    if (now)
      trace_error("calx::vmap: an argument with in_axes 0 is not a batch here (inside a traced "
                  "function, map over a runtime batch or a std::array)");
  }
  /// A tensor with in_axes 0 outside a trace (vmap.hpp sends such calls here: a tensor's
  /// type is the same traced or not).
  [[noreturn]] static void tensor_not_a_batch() {
    invalid_argument("calx::vmap: an argument with in_axes 0 is a calx::tensor holding numbers; a tensor is a "
                     "batch only inside a traced function (a batch of tensors given to grad, value_and_grad, jvp "
                     "or trace). Map over a std::vector, std::span or std::array of tensors instead");
  }
  static constexpr void refuse_batched_none_output(bool now) {
    if (now) trace_error("calx::vmap: out_axes is calx::none for an output that depends on the batch");
  }

  /// A runtime batch inside a traced function: f's per-sample program, inlined with the
  /// batched values.
  template <class Ax, class... A>
  static constexpr auto map_runtime(const A&... a) {
    if constexpr (diagnose_traceable<F, sample_tree_t<rebind_t<A, tracer>>...>()) {
      if (!std::is_constant_evaluated()) tensor_not_a_batch();
      using C = traced_call<F, sample_tree_t<A>...>;  // f sees one sample, not the batch
      const auto flat = flatten_args<tracer>(a...);  // one tracer per value
      graph* g = graph_in(flat);
      std::vector<int> ids(flat.size(), -1);
      int like = -1;
      std::size_t k = 0, pos = 0;
      auto mark = [&](std::size_t values, int axis) {
        for (std::size_t l = 0; l < values; ++l, ++pos) {
          ids[pos] = flat[pos].id;
          if (axis == 0 && !g->is_batched(ids[pos])) g->refuse(&refuse_unbatched_argument);
          if (axis == 0) like = ids[pos];
        }
      };
      (mark(value_count_v<A>, Ax::axes[k++]), ...);
      constexpr const auto& r = materialized<typename C::source>::value;
      auto outs = output_tracers(r, *g, replay(r, *g, ids));
      using OAx = axes_info<OutAxes, top_count<typename C::output_tree>()>;
      using spec = out_spec<typename C::output_tree, OAx>;
      int like_scalar = -1;  // element 0 of the batched argument: the batch's shape, one number a sample
      for (std::size_t o = 0; o < outs.size(); ++o) {
        const bool once = spec::template unbatched<tracer>(o);
        if (once && g->is_batched(outs[o].id)) g->refuse(&refuse_batched_none_output);
        if (once) continue;
        if (like_scalar < 0) like_scalar = index(*g, like, 0);
        outs[o] = emit<broadcast_op>(outs[o], tracer{g, like_scalar});
      }
      // Every output per sample (out_axes 0): typed as a batch, for a transform called on it.
      using Out = std::conditional_t<OAx::all_batched, batch_tree_t<typename C::output_tree>, typename C::output_tree>;
      return unflatten<Out>(outs);
    } else {
      return tracing_failed<F, sample_tree_t<rebind_t<A, tracer>>...>();
    }
  }
};

}  // namespace detail
CALX_END_NAMESPACE

#endif // CALX_DETAIL_CALL_VMAP_TRACED_HPP
