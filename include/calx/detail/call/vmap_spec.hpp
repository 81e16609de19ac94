/// @file detail/call/vmap_spec.hpp
/// @brief What a vmap call maps, decided at compile time from its options and argument
/// types: the axes of each argument and output, each argument's sample type, the batch's
/// compile-time length when it has one, and which flat inputs and outputs are per sample.
#ifndef CALX_DETAIL_CALL_VMAP_SPEC_HPP
#define CALX_DETAIL_CALL_VMAP_SPEC_HPP

#include <calx/detail/internal_header_check.hpp>

#include <calx/axes.hpp>
#include <calx/detail/call/batch_inputs.hpp>
#include <calx/detail/ir/ir.hpp>
#include <calx/tree.hpp>

#include <array>
#include <cstddef>
#include <span>
#include <tuple>
#include <type_traits>
#include <utility>

CALX_BEGIN_NAMESPACE
namespace detail {

template <class O>
struct is_in_axes : std::false_type {};
template <int... A>
struct is_in_axes<in_axes_t<A...>> : std::true_type {};
template <class O>
struct is_out_axes : std::false_type {};
template <int... A>
struct is_out_axes<out_axes_t<A...>> : std::true_type {};

/// An in_axes or out_axes spec for `N` entries: checked, and expanded to one axis each.
template <class Axes, std::size_t N>
struct axes_info;
template <template <int...> class Spec, int... A, std::size_t N>
struct axes_info<Spec<A...>, N> {
  static constexpr bool count_ok = sizeof...(A) == 1 || sizeof...(A) == N;
  static constexpr bool values_ok = ((A == 0 || A == none) && ...);
  static constexpr bool ok = count_ok && values_ok;
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
  static constexpr bool all_batched = [] {
    for (int a : axes)
      if (a != 0) return false;
    return true;
  }();
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

/// Whether the std::array batch arguments all have the same length (checked at compile time).
template <class Axes, class... A>
constexpr bool static_lengths_agree() {
  std::size_t n = std::dynamic_extent, k = 0;
  bool ok = true;
  auto one = [&](std::size_t e, bool batched, bool fixed) {
    if (!batched || !fixed) return;
    ok = ok && (n == std::dynamic_extent || n == e);
    n = e;
  };
  (one(extent_of<A>(), Axes::axes[k++] == 0, is_std_array_v<A>), ...);
  return ok;
}

/// The number of out_axes entries a result takes: one per element of a returned tuple or
/// pair, else one.
template <class Out>
constexpr std::size_t top_count() {
  if constexpr (requires { std::tuple_size<Out>::value; } && !requires { typename Out::value_type; })
    return std::tuple_size_v<Out>;
  else
    return 1;
}

/// Which outputs of `Out` are returned once (their out_axes entry is calx::none).
template <class Out, class OutAxes>
struct out_spec {
  static constexpr bool per_element = top_count<Out>() > 1;
  /// Whether entry `o` of a flat array of `L` (see `slot_count_v`) is returned once.
  template <class L>
  static constexpr bool unbatched(std::size_t o) {
    if constexpr (per_element) {
      return [&]<std::size_t... I>(std::index_sequence<I...>) {
        constexpr std::size_t counts[] = {slot_count_v<std::tuple_element_t<I, Out>, L>...};
        std::size_t k = 0;
        for (; k + 1 < sizeof...(I) && o >= counts[k]; ++k) o -= counts[k];
        return OutAxes::axes[k] == none;
      }(std::make_index_sequence<std::tuple_size_v<Out>>{});
    } else {
      return OutAxes::axes[0] == none;
    }
  }
};

/// The flat input positions of the batched arguments `E...` (samples), one range each.
template <class Ax, class... E>
struct batched_inputs {
  static constexpr auto ranges = [] {
    constexpr std::size_t counts[] = {leaf_count_v<E>..., 0};
    constexpr std::size_t n = [&] {
      std::size_t t = 0;
      for (std::size_t k = 0; k < sizeof...(E); ++k) t += Ax::axes[k] == 0 ? 1 : 0;
      return t;
    }();
    std::array<flat_range, n> r{};
    std::size_t q = 0, pos = 0;
    for (std::size_t k = 0; k < sizeof...(E); pos += counts[k++])
      if (Ax::axes[k] == 0) r[q++] = flat_range{pos, counts[k]};
    return r;
  }();
};

}  // namespace detail
CALX_END_NAMESPACE

#endif // CALX_DETAIL_CALL_VMAP_SPEC_HPP
