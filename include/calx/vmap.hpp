/// @file vmap.hpp
/// @brief `calx::vmap(f, in_axes, out_axes)`: `f` mapped over a batch, as SIMD code.
#ifndef CALX_VMAP_HPP
#define CALX_VMAP_HPP

#include <calx/axes.hpp>
#include <calx/batched.hpp>
#include <calx/config.hpp>
#include <calx/detail/call/trace_source.hpp>
#include <calx/detail/call/transform_support.hpp>
#include <calx/detail/call/vmap_call.hpp>
#include <calx/detail/call/vmap_spec.hpp>
#include <calx/detail/call/vmap_traced.hpp>
#include <calx/detail/diagnostics.hpp>
#include <calx/tracer.hpp>

#include <xsimd/xsimd.hpp>

#include <cstddef>
#include <tuple>
#include <type_traits>
#include <utility>

CALX_BEGIN_NAMESPACE

namespace detail {

/// `vmap(f)`: a stateless function object (so transforms compose with it), with the
/// executor's options.
template <class F, class InAxes, class OutAxes>
struct vmap_transform {
  using call = vmap_call<F, InAxes, OutAxes, no_dest, xsimd::default_arch>;

  /// Maps `f` over the batched arguments: SIMD code over runtime batches, or, inside a
  /// traced function, the traced map (see docs/vmap.md).
  template <class... A>
  constexpr auto operator()(const A&... a) const {
    if constexpr ((contains_tracer<A>() || ...) || tensor_batches<A...>())
      return vmap_traced<F, InAxes, OutAxes>::call(a...);
    else
      return call{}(a...);
  }
  /// Runs on up to `n` threads (0: one per core). Results do not depend on `n`.
  auto threads(std::integral auto n) const { return call{}.threads(n); }
  /// Writes into `out` (the result's structure; see docs/vmap.md) instead of allocating.
  template <class Out>
  constexpr auto into(Out&& out) const {
    return call{}.into(std::forward<Out>(out));
  }
  /// Over calx::device_span arguments: the kernel queued on CUDA stream `s` (see docs/cuda.md).
  template <class S>
  constexpr auto on(S s) const {
    return call{}.on(s);
  }
  /// The loop compiled for xsimd architecture `A` (a value, e.g. `xsimd::avx2{}`).
  template <class A>
  constexpr auto arch(A a) const {
    return call{}.arch(a);
  }

 private:
  /// Whether the batched arguments are tensors (or structures of them) and nothing is a
  /// runtime range: then the call can only be inside a traced function, on a batch of
  /// tensor samples that grad, value_and_grad, jvp or trace was given (a tensor's type is
  /// the same traced or not; vmap_traced checks the values).
  template <class... A>
  static constexpr bool tensor_batches() {
    using Ax = axes_info<InAxes, sizeof...(A)>;
    if constexpr (!Ax::ok || (has_batch_v<A> || ...)) {
      return false;
    } else {
      std::size_t k = 0;
      bool tensors = false, sources = false;
      ((tensors = tensors || (Ax::axes[k] == 0 && holds_whole_node<A>()),
        sources = sources || (Ax::axes[k] == 0 && batch_source_traits<A>::valid), ++k), ...);
      return tensors && !sources;
    }
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
/// Batched arguments are std::vector, std::span, calx::batched or std::array of samples
/// (each a float, a double, or a structure of them), or calx::device_span over device memory
/// (a CUDA kernel, one sample per thread: docs/cuda.md); `calx::in_axes<0, calx::none>`
/// broadcasts the second argument. A result that `f` returns as a tuple or pair is a tuple or
/// pair of results; any other result X is one X per sample, `r[sample]`: a `calx::batched<X>`
/// (a std::array for std::array batches). The loop runs on xsimd batches, one sample per lane.
inline constexpr vmap_fn vmap{};

CALX_END_NAMESPACE

#endif // CALX_VMAP_HPP
