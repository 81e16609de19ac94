/// @file vmap.hpp
/// @brief `calx::vmap(f, in_axes, out_axes)`: `f` mapped over a batch, as SIMD code.
#ifndef CALX_VMAP_HPP
#define CALX_VMAP_HPP

#include <calx/batched.hpp>
#include <calx/config.hpp>
#include <calx/detail/exec/simd_executor.hpp>
#include <calx/detail/diagnostics.hpp>
#include <calx/detail/call/transform_support.hpp>
#include <calx/detail/call/views.hpp>
#include <calx/ops/reduction.hpp>
#include <calx/tracer.hpp>
#include <calx/tree.hpp>

#include <xsimd/xsimd.hpp>

#include <array>
#include <climits>
#include <cstddef>
#include <span>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

CALX_BEGIN_NAMESPACE

/// The axis spec of an unbatched argument (broadcast to every sample) or output.
inline constexpr int none = INT_MIN;

/// The type of `calx::in_axes<...>`.
template <int... A>
struct in_axes_t {};
/// Per argument: 0 (batched along its first axis) or `calx::none` (the same value for every
/// sample). One value applies to every argument.
template <int... A>
inline constexpr in_axes_t<A...> in_axes{};

/// The type of `calx::out_axes<...>`.
template <int... A>
struct out_axes_t {};
/// Per element of the returned tuple or pair (or one value for all): 0 (one value per
/// sample) or `calx::none` (an output that does not depend on the batch, returned once).
template <int... A>
inline constexpr out_axes_t<A...> out_axes{};

namespace detail {

template <class O>
struct is_in_axes : std::false_type {};
template <int... A>
struct is_in_axes<in_axes_t<A...>> : std::true_type {};
template <class O>
struct is_out_axes : std::false_type {};
template <int... A>
struct is_out_axes<out_axes_t<A...>> : std::true_type {};

template <class Axes, std::size_t N>
struct axes_info;
template <template <int...> class Spec, int... A, std::size_t N>
struct axes_info<Spec<A...>, N> {
  static constexpr bool count_ok = sizeof...(A) == 1 || sizeof...(A) == N;
  static constexpr bool values_ok = ((A == 0 || A == none) && ...);
  static constexpr std::array<int, N> axes = [] {
    constexpr int given[] = {A...};
    std::array<int, N> r{};
    for (std::size_t k = 0; k < N; ++k) r[k] = given[sizeof...(A) == 1 ? 0 : (k < sizeof...(A) ? k : 0)];
    return r;
  }();
  static constexpr bool any_batched = [] {
    for (int a : axes)
      if (a == 0) return true;
    return false;
  }();
};

/// A batch source: a contiguous range whose elements are argument structures.
template <class C>
struct batch_source_traits {
  static constexpr bool valid = false;
};
template <class E, class A>
struct batch_source_traits<std::vector<E, A>> {
  static constexpr bool valid = tree_traits<E>::valid && !tree_traits<E>::has_batch;
  static constexpr std::size_t extent = std::dynamic_extent;
  using element = E;
};
template <class E, std::size_t X>
struct batch_source_traits<std::span<E, X>> : batch_source_traits<std::vector<std::remove_const_t<E>>> {
  static constexpr std::size_t extent = X;
};
template <class E, std::size_t N>
struct batch_source_traits<std::array<E, N>> : batch_source_traits<std::vector<E>> {
  static constexpr std::size_t extent = N;
};

/// Per argument: its element type when batched, itself when broadcast.
template <int Axis, class A>
struct sample_of {
  using type = A;
};
template <class A>
struct sample_of<0, A> {
  using type = typename batch_source_traits<A>::element;
};

/// The compile-time batch length when every batched argument has a fixed extent.
template <class A>
constexpr std::size_t extent_of() {
  if constexpr (requires { batch_source_traits<A>::extent; })
    return batch_source_traits<A>::extent;
  else
    return std::dynamic_extent;
}
template <class Axes, class... A>
constexpr std::size_t static_extent() {
  std::size_t n = std::dynamic_extent, k = 0;
  bool clash = false;
  auto one = [&](std::size_t e, bool batched) {
    if (!batched) return;
    if (e == std::dynamic_extent || (n != std::dynamic_extent && n != e)) clash = true;
    n = e;
  };
  (one(extent_of<A>(), Axes::axes[k++] == 0), ...);
  return clash ? std::dynamic_extent : n;
}

template <class Out>
constexpr std::size_t top_count() {
  if constexpr (requires { std::tuple_size<Out>::value; } && !requires { typename Out::value_type; })
    return std::tuple_size_v<Out>;
  else
    return 1;
}

template <class Out, class OutAxes>
struct out_spec {
  /// A tuple or pair result with one out_axes entry per element.
  static constexpr bool per_element = top_count<Out>() > 1;
  template <class Col, class L>
  static auto leaf_result() {
    if constexpr (per_element) {
      return [&]<std::size_t... I>(std::index_sequence<I...>) {
        if constexpr (requires { typename Out::first_type; })
          return std::pair<rebind_t<std::tuple_element_t<I, Out>, std::conditional_t<OutAxes::axes[I] == 0, Col, L>>...>{};
        else
          return std::tuple<rebind_t<std::tuple_element_t<I, Out>, std::conditional_t<OutAxes::axes[I] == 0, Col, L>>...>{};
      }(std::make_index_sequence<std::tuple_size_v<Out>>{});
    } else {
      return rebind_t<Out, std::conditional_t<OutAxes::axes[0] == 0, Col, L>>{};
    }
  }
  /// Whether flat output `o` is returned once (out_axes none).
  static constexpr auto unbatched = [] {
    std::array<bool, leaf_count_v<Out> == 0 ? 1 : leaf_count_v<Out>> r{};
    if constexpr (per_element) {
      std::size_t o = 0;
      [&]<std::size_t... I>(std::index_sequence<I...>) {
        ((void)[&] {
          for (std::size_t k = 0; k < leaf_count_v<std::tuple_element_t<I, Out>>; ++k)
            r[o++] = OutAxes::axes[I] == none;
        }(), ...);
      }(std::make_index_sequence<std::tuple_size_v<Out>>{});
    } else {
      for (auto& b : r) b = OutAxes::axes[0] == none;
    }
    return r;
  }();
};

template <class T>
inline constexpr bool is_std_array_v = false;
template <class T, std::size_t N>
inline constexpr bool is_std_array_v<std::array<T, N>> = true;

template <class T>
inline constexpr bool traced_tree_v = leaves_are_v<T, tracer> && tree_traits<T>::valid;

/// The executable vmap: thread count, optional output buffers (`Dest`, or void) and the
/// SIMD architecture the loop is compiled for.
template <class F, class InAxes, class OutAxes, class Dest, class Arch = xsimd::default_arch>
struct vmap_call;

template <class F, class InAxes, class OutAxes>
struct vmap_transform {
  /// Maps `f` over the batched arguments: SIMD code over runtime batches, or, inside a
  /// traced function, the traced map (see docs/vmap.md).
  template <class... A>
  constexpr auto operator()(const A&... a) const {
    if constexpr ((contains_tracer<A>() || ...))
      return traced(a...);
    else
      return vmap_call<F, InAxes, OutAxes, void>{}(a...);
  }
  /// Runs on up to `n` threads (0: one per core). Results do not depend on `n`.
  constexpr vmap_call<F, InAxes, OutAxes, void> threads(unsigned n) const { return {n, nullptr}; }
  /// Writes into `out` (the result's structure, columns as std::span / std::vector /
  /// calx::batched / std::array of the batch's length) instead of allocating.
  template <class Out>
  constexpr vmap_call<F, InAxes, OutAxes, Out> into(Out& out) const { return {1, &out}; }
  /// The loop compiled for xsimd architecture `A` (a value, e.g. `xsimd::avx2{}`).
  template <class A>
  constexpr vmap_call<F, InAxes, OutAxes, void, A> arch(A) const { return {1, nullptr}; }

 private:
  template <class T>
  static constexpr bool contains_tracer() {
    if constexpr (std::is_same_v<T, tracer>)
      return true;
    else if constexpr (requires { std::tuple_size<T>::value; })
      return []<std::size_t... I>(std::index_sequence<I...>) {
        return (contains_tracer<std::remove_cvref_t<std::tuple_element_t<I, T>>>() || ...);
      }(std::make_index_sequence<std::tuple_size_v<T>>{});
    else
      return false;
  }

  template <class... A>
  static constexpr auto traced(const A&... a) {
    using Ax = axes_info<InAxes, sizeof...(A)>;
    static_assert(Ax::count_ok && Ax::values_ok, CALX_MSG_IN_AXES);
    static_assert(!(Ax::count_ok && Ax::values_ok) || Ax::any_batched, CALX_MSG_NOTHING_BATCHED);
    constexpr bool static_batch = [] {
      std::size_t k = 0;
      bool any = false;
      ((any = any || (Ax::axes[k++] == 0 && is_std_array_v<A>)), ...);
      return any;
    }();
    if constexpr (Ax::count_ok && Ax::values_ok && Ax::any_batched) {
      if constexpr (static_batch)
        return map_static<Ax>(a...);
      else
        return map_runtime<Ax>(a...);
    }
  }

  /// A compile-time batch (std::array) inside a traced function: f applied per element.
  template <class Ax, class... A>
  static constexpr auto map_static(const A&... a) {
    constexpr std::size_t N = static_extent<Ax, A...>();
    static_assert(N != std::dynamic_extent, CALX_MSG_STATIC_LENGTHS);
    auto sample = [&](std::size_t i) {
      std::size_t k = 0;
      auto pick = [&](const auto& x) -> decltype(auto) {
        if constexpr (is_std_array_v<std::remove_cvref_t<decltype(x)>>)
          return Ax::axes[k++] == 0 ? x[i] : x[i];
        else
          return (++k, x);
      };
      return F{}(pick(a)...);
    };
    using Out = std::remove_cvref_t<decltype(sample(0))>;
    constexpr std::size_t K = leaf_count_v<Out>;
    std::array<tracer, K * N == 0 ? 1 : K * N> leafmajor{};
    for (std::size_t i = 0; i < N; ++i) {
      std::array<tracer, K == 0 ? 1 : K> flat{};
      flatten_into(sample(i), flat.data());
      for (std::size_t l = 0; l < K; ++l) leafmajor[l * N + i] = flat[l];
    }
    const tracer* p = leafmajor.data();
    return unflatten_from<rebind_t<Out, std::array<tracer, N>>>(p);
  }

  /// A runtime batch inside a traced function: f's per-sample program, inlined with the
  /// batched values (see docs/vmap.md: f never sees the batch, so calx::sum inside f does
  /// not sum over it).
  template <class Ax, class... A>
  static constexpr auto map_runtime(const A&... a) {
    if constexpr (diagnose_traceable<F, rebind_t<A, tracer>...>()) {
      using C = traced_call<F, A...>;
      const auto flat = flatten_args<tracer>(a...);
      graph* g = graph_in(flat);
      std::vector<int> ids(flat.size(), -1);
      int like = -1;
      std::size_t k = 0, pos = 0;
      auto mark = [&](std::size_t leaves, int axis) {
        for (std::size_t l = 0; l < leaves; ++l, ++pos) {
          ids[pos] = flat[pos].id;
          if (axis == 0 && !g->is_batched(ids[pos]))
            trace_error("calx::vmap: an argument with in_axes 0 is not a batch here (inside a traced "
                        "function, map over a runtime batch or a std::array)");
          if (axis == 0) like = ids[pos];
        }
      };
      (mark(leaf_count_v<A>, Ax::axes[k++]), ...);
      std::vector<int> res = replay(materialized<typename C::source>::value, *g, ids);
      using OAx = axes_info<OutAxes, top_count<typename C::output_tree>()>;
      using spec = out_spec<typename C::output_tree, OAx>;
      std::array<tracer, C::outputs == 0 ? 1 : C::outputs> outs{};
      for (std::size_t o = 0; o < C::outputs; ++o) {
        if (spec::unbatched[o] && g->is_batched(res[o]))
          trace_error("calx::vmap: out_axes is calx::none for an output that depends on the batch");
        outs[o] = spec::unbatched[o] ? in_graph(*g, res[o]) : emit<broadcast_op>(in_graph(*g, res[o]), tracer{g, like});
      }
      return unflatten<typename C::output_tree>(outs);
    } else {
      return tracing_failed<F, rebind_t<A, tracer>...>();
    }
  }
};

template <class F, class InAxes, class OutAxes, class Dest, class Arch>
struct vmap_call {
  unsigned thread_count = 1;
  Dest* out = nullptr;

  constexpr vmap_call threads(unsigned n) const { return {n, out}; }
  template <class O>
  constexpr vmap_call<F, InAxes, OutAxes, O, Arch> into(O& o) const { return {thread_count, &o}; }
  /// The loop compiled for xsimd architecture `A`, given as a value like xsimd::dispatch
  /// passes it to its functor (see docs/vmap.md).
  template <class A>
  constexpr vmap_call<F, InAxes, OutAxes, Dest, A> arch(A) const { return {thread_count, out}; }

  template <class... A>
  auto operator()(const A&... a) const {
    using Ax = axes_info<InAxes, sizeof...(A)>;
    constexpr bool axes_ok = Ax::count_ok && Ax::values_ok;
    static_assert(axes_ok, CALX_MSG_IN_AXES);
    static_assert(!axes_ok || Ax::any_batched, CALX_MSG_NOTHING_BATCHED);
    if constexpr (axes_ok && Ax::any_batched) {
      constexpr bool sources_ok = [] {
        std::size_t k = 0;
        return ((Ax::axes[k++] != 0 || batch_source_traits<A>::valid) && ...);
      }();
      constexpr bool broadcast_ok = [] {
        std::size_t k = 0;
        return ((Ax::axes[k++] == 0 || !has_batch_v<A>) && ...);
      }();
      constexpr bool lengths_ok = [] {  // std::array batches: lengths known, so checked here
        std::size_t n = std::dynamic_extent, k = 0;
        bool ok = true;
        auto one = [&](std::size_t e, bool batched, bool fixed) {
          if (!batched || !fixed) return;
          ok = ok && (n == std::dynamic_extent || n == e);
          n = e;
        };
        (one(extent_of<A>(), Ax::axes[k++] == 0, is_std_array_v<A>), ...);
        return ok;
      }();
      static_assert(sources_ok, CALX_MSG_BATCH_SOURCE);
      static_assert(!sources_ok || broadcast_ok, CALX_MSG_BROADCAST_BATCH);
      static_assert(!sources_ok || !broadcast_ok || lengths_ok, CALX_MSG_STATIC_LENGTHS);
      if constexpr (sources_ok && broadcast_ok && lengths_ok)
        return run<Ax>(std::make_index_sequence<sizeof...(A)>{}, a...);
      else
        return invalid_program{};
    } else {
      return invalid_program{};
    }
  }

 private:
  template <class Ax, std::size_t... K, class... A>
  auto run(std::index_sequence<K...>, const A&... a) const {
    using S = std::tuple<typename sample_of<Ax::axes[K], A>::type...>;
    return run_samples<Ax, std::tuple_element_t<K, S>...>(a...);
  }

  template <class Ax, class... E, class... A>
  auto run_samples(const A&... a) const {
    if constexpr (diagnose_arguments<E...>() && diagnose_traceable<F, rebind_t<E, tracer>...>()) {
      using C = traced_call<F, E...>;
      using L = typename C::leaf;
      using Out = typename C::output_tree;
      using OAx = axes_info<OutAxes, top_count<Out>()>;
      static_assert(OAx::count_ok && OAx::values_ok, CALX_MSG_OUT_AXES);
      using Batched = batched_inputs<Ax, E...>;
      using Program = batch_source<typename C::source, Batched>;
      using spec = out_spec<Out, OAx>;
      static_assert(outputs_ok<Program, spec>(), CALX_MSG_OUT_AXES_NONE);
      // Inputs: batched arguments as per-leaf strided views, broadcast ones as values.
      std::array<input_view<L>, C::inputs == 0 ? 1 : C::inputs> in{};
      input_view<L>* ip = in.data();
      batch_length len;
      auto add = [&]<std::size_t K>(std::integral_constant<std::size_t, K>, const auto& x) {
        if constexpr (Ax::axes[K] == 0) {
          len.add(std::size(x), static_cast<int>(K), "calx::vmap");
          collect_element_views<L>(std::size(x) == 0 ? nullptr : std::data(x), ip);
        } else {
          collect_views<L>(x, ip, len, static_cast<int>(K), "calx::vmap");
        }
      };
      [&]<std::size_t... K>(std::index_sequence<K...>) {
        (add(std::integral_constant<std::size_t, K>{}, a), ...);
      }(std::index_sequence_for<A...>{});
      const std::size_t batch = len.size;
      constexpr std::size_t N = static_extent<Ax, A...>();
      using Col = std::conditional_t<N == std::dynamic_extent, batched<L>, std::array<L, N == std::dynamic_extent ? 1 : N>>;
      std::array<output_view<L>, C::outputs == 0 ? 1 : C::outputs> ov{};
      output_view<L>* op = ov.data();
      if constexpr (std::is_void_v<Dest>) {
        auto result = spec::template leaf_result<Col, L>();
        resize_columns(result, batch);
        collect_outputs<Out, L>(result, op, batch, "calx::vmap");
        batch_executor<lowered_t<Program, xsimd::batch<L, Arch>>, L, Arch>::run(in.data(), ov.data(), batch, thread_count);
        return result;
      } else {
        constexpr auto columns = [] {
          std::array<bool, C::outputs == 0 ? 1 : C::outputs> c{};
          bool* p = c.data();
          column_leaves<Out, Dest>(p);
          return c;
        }();
        constexpr bool matches = [&] {
          for (std::size_t o = 0; o < C::outputs; ++o)
            if (columns[o] == spec::unbatched[o]) return false;
          return true;
        }();
        static_assert(matches, CALX_MSG_INTO_STRUCTURE);
        collect_outputs<Out, L>(*out, op, batch, "calx::vmap");
        batch_executor<lowered_t<Program, xsimd::batch<L, Arch>>, L, Arch>::run(in.data(), ov.data(), batch, thread_count);
      }
    } else {
      return tracing_failed<F, rebind_t<E, tracer>...>();
    }
  }
  template <class Ax, class... E>
  struct batched_inputs {
    static constexpr auto leaves = [] {
      constexpr std::size_t counts[] = {leaf_count_v<E>..., 0};
      constexpr std::size_t total = [&] {
        std::size_t t = 0;
        for (std::size_t k = 0; k < sizeof...(E); ++k)
          if (Ax::axes[k] == 0) t += counts[k];
        return t;
      }();
      std::array<std::size_t, total> r{};
      std::size_t n = 0, pos = 0;
      for (std::size_t k = 0; k < sizeof...(E); ++k)
        for (std::size_t l = 0; l < counts[k]; ++l, ++pos)
          if (Ax::axes[k] == 0) r[n++] = pos;
      return r;
    }();
  };

  template <class Program, class Spec>
  static constexpr bool outputs_ok() {
    constexpr const auto& r = materialized<Program>::value;
    for (std::size_t o = 0; o < r.outputs.size(); ++o)
      if (Spec::unbatched[o] && r.nodes[r.outputs[o]].batched) return false;
    return true;
  }
};

}  // namespace detail

/// The function object behind `calx::vmap`.
struct vmap_fn {
  template <class F, class... Opts>
  constexpr auto operator()(const F&, const Opts&...) const {
    constexpr bool stateless = detail::stateless_v<F>;
    static_assert(stateless, CALX_MSG_CAPTURES_IN("vmap"));
    using In = typename detail::first_of<detail::is_in_axes, in_axes_t<0>, Opts...>::type;
    using Out = typename detail::first_of<detail::is_out_axes, out_axes_t<0>, Opts...>::type;
    constexpr bool options_ok = ((detail::is_in_axes<Opts>::value || detail::is_out_axes<Opts>::value) && ...);
    static_assert(!stateless || options_ok, CALX_MSG_VMAP_OPTION);
    if constexpr (stateless && options_ok)
      return detail::vmap_transform<F, In, Out>{};
    else
      return detail::invalid_program{};
  }
};

/// `calx::vmap(f)(xs, ys)`: `f` applied to every sample of the batched arguments.
/// Batched arguments are std::vector, std::span or std::array of samples (each a float,
/// double, or a structure of them); `calx::in_axes<0, calx::none>` broadcasts the second
/// argument. The result has `f`'s structure with every leaf a `calx::batched<T>` column (a
/// std::array for std::array batches). The loop runs on xsimd batches, one sample per lane.
inline constexpr vmap_fn vmap{};

CALX_END_NAMESPACE

#endif // CALX_VMAP_HPP
