/// @file tensor/layout.hpp
/// @brief Tensors rearranged: `transpose`, `reshape`, `slice`, `take`, `concatenate` and `stack`
/// (transpose, reshape, slice and pad nodes; concatenation is pads added up).
#ifndef CALX_TENSOR_LAYOUT_HPP
#define CALX_TENSOR_LAYOUT_HPP

#include <calx/config.hpp>
#include <calx/detail/diagnostics.hpp>
#include <calx/tensor_type.hpp>

#include <array>
#include <tuple>
#include <utility>

#include <cstddef>
#include <type_traits>

CALX_BEGIN_NAMESPACE

/// A matrix transposed.
template <class T, std::size_t M, std::size_t N>
constexpr tensor<T, N, M> transpose(const tensor<T, M, N>& a) {
  return detail::tensor_op_call<tensor<T, N, M>>([](detail::graph& g, int x) { return detail::transpose(g, x); },
                                                 [](T* out, const T* in) {
                                                   for (std::size_t r = 0; r < M; ++r)
                                                     for (std::size_t c = 0; c < N; ++c) out[c * M + r] = in[r * N + c];
                                                 },
                                                 a);
}
/// A tensor of rank 0 or 1 is its own transpose, as jnp.transpose's; rank 3 or more is
/// refused with a message (calx has no permutation of axes yet).
template <class T, std::size_t... D>
  requires(sizeof...(D) != 2)
constexpr tensor<T, D...> transpose(const tensor<T, D...>& a) {
  static_assert(sizeof...(D) < 2, CALX_MSG_TRANSPOSE_RANK);
  return a;
}
/// The same elements, row major, in another shape of the same size.
template <std::size_t... To, class T, std::size_t... D>
constexpr tensor<T, To...> reshape(const tensor<T, D...>& a) {
  static_assert((std::size_t{1} * ... * To) == (std::size_t{1} * ... * D),
                "calx::reshape: the new shape must have as many elements as the tensor");
  return detail::reshaped<tensor<T, To...>>(a);
}

// ---- slicing, indexing, concatenation -------------------------------------------------

namespace detail {
template <class X, int A, int B, int E>
struct sliced_shape_of {
  static constexpr shape value = [] {
    shape s = tensor_traits<X>::dims;
    s.extent[A] = E - B;
    return s;
  }();
};
template <class X, int A>
struct dropped_shape_of {
  static constexpr shape value = reduced(tensor_traits<X>::dims, A);
};
}  // namespace detail

namespace detail {
/// A slice [B, E) that is empty or leaves axis A of X; the instantiation names them.
template <class X, int A, int B, int E>
constexpr void slice_out_of_range() {
  static_assert(tensor_axes_ok<X, A, B, E>, "calx::slice: [B, E) must be a non-empty range within the axis; the tensor, the axis, B "
                        "and E are the template arguments above");
}
}  // namespace detail

/// Elements [B, E) along axis 0, or along `calx::axis<A>`: `x[B:E]` in NumPy.
template <int B, int E, detail::tensor_type X, class... Axis>
constexpr auto slice(const X& x, const Axis&...) {
  constexpr int A = sizeof...(Axis) == 0 ? 0 : detail::axis_of<X, Axis...>();
  using T = typename X::value_type;
  if constexpr (!detail::axis_in_range<X, A>() || A < 0) {
    return X{};  // reported; zeros stand in
  } else if constexpr (!(0 <= B && B < E && E <= detail::tensor_traits<X>::dims.extent[A])) {
    detail::slice_out_of_range<X, A, B, E>();
    return X{};  // zeros stand in: the message is the only error
  } else {
  using R = detail::tensor_of_t<T, detail::sliced_shape_of<X, A, B, E>>;
  return detail::tensor_op_call<R>([](detail::graph& g, int id) { return detail::slice(g, id, A, B, E); },
                                   [](T* out, const T* in) {
                                     detail::slice_loop(detail::tensor_traits<X>::dims, {A, B, E},
                                                        [&](int whole, int part) { out[part] = in[whole]; });
                                   },
                                   x);
  }
}

/// Index I along axis 0 (or `calx::axis<A>`), that axis dropped: `x[I]` in NumPy.
template <int I, detail::tensor_type X, class... Axis>
constexpr auto take(const X& x, const Axis&... axis) {
  constexpr int A = sizeof...(Axis) == 0 ? 0 : detail::axis_of<X, Axis...>();
  using R = detail::tensor_of_t<typename X::value_type, detail::dropped_shape_of<X, A>>;
  return detail::reshaped<R>(calx::slice<I, I + 1>(x, axis...));
}

namespace detail {
template <int A, class... X>
struct concatenated_shape_of {
  static constexpr shape value = [] {
    shape s = tensor_traits<first_type_t<X...>>::dims;
    s.extent[A] = (0 + ... + tensor_traits<X>::dims.extent[A]);
    return s;
  }();
};

/// Shapes that cannot be concatenated along an axis; the instantiation names them.
template <int A, class... X>
constexpr void shapes_concatenate() {
  static_assert(tensor_axes_ok<tensor<double>, A> && tensor_shapes_ok<X...>, "calx::concatenate: the tensors must have the same rank and the same extents except along "
                        "the axis; the shapes are the template arguments above");
}

template <int A, class... X>
constexpr bool concatenable() {
  using F = first_type_t<X...>;
  constexpr shape f = tensor_traits<F>::dims;
  bool ok = A >= 0 && A < f.rank;
  for (const shape& s : {tensor_traits<X>::dims...}) {
    ok = ok && s.rank == f.rank;
    for (int k = 0; k < f.rank && ok; ++k) ok = k == A || s.extent[k] == f.extent[k];
  }
  return ok;
}

/// `x` placed at offset B along axis A of a tensor of zeros of type R.
template <class R, int A, int B, class X>
constexpr R pad_into(const X& x) {
  using T = typename X::value_type;
  return tensor_op_call<R>([](graph& g, int id) { return pad(g, id, dims_v<R>, A, B); },
                           [](T* out, const T* in) {  // out is zeros
                             slice_loop(dims_v<R>, {A, B, B + dims_v<X>.extent[A]},
                                        [&](int whole, int part) { out[whole] = in[part]; });
                           },
                           x);
}

template <class R, int A, class Offsets, class... X>
struct concat_impl;
template <class R, int A, int... Off, class... X>
struct concat_impl<R, A, std::integer_sequence<int, Off...>, X...> {
  static constexpr R run(const X&... x) { return (pad_into<R, A, Off>(x) + ...); }
};

template <int A, class... X>
constexpr auto offsets_along() {
  constexpr int n = sizeof...(X);
  std::array<int, n> o{};
  const int extents[] = {tensor_traits<X>::dims.extent[A]...};
  for (int k = 1; k < n; ++k) o[static_cast<std::size_t>(k)] = o[static_cast<std::size_t>(k - 1)] + extents[k - 1];
  return o;
}
template <int A, class... X, std::size_t... K>
constexpr auto offsets_sequence(std::index_sequence<K...>) {
  constexpr auto o = offsets_along<A, X...>();
  return std::integer_sequence<int, o[K]...>{};
}
}  // namespace detail

namespace detail {
template <int A, class... X>
constexpr auto concat_tensors(const X&... x) {
  if constexpr (!concatenable<A, X...>()) {
    shapes_concatenate<A, X...>();
    return first_type_t<X...>{};  // zeros stand in: the message is the only error
  } else {
    using R = tensor_of_t<typename first_type_t<X...>::value_type, concatenated_shape_of<A, X...>>;
    using Off = decltype(offsets_sequence<A, X...>(std::make_index_sequence<sizeof...(X)>{}));
    return concat_impl<R, A, Off, X...>::run(x...);
  }
}

template <class T, std::size_t... D>
constexpr tensor<T, 1, D...> with_leading_axis(const tensor<T, D...>& x) {
  return calx::reshape<1, D...>(x);
}
}  // namespace detail

/// The tensors joined along axis 0 (or `calx::axis<A>`, given last): jnp.concatenate. It is
/// written with `pad` and `+`, so its rules are theirs.
template <class... Args>
constexpr auto concatenate(const Args&... args) {
  return [&]<std::size_t... K>(std::index_sequence<K...>) {
    using all = std::tuple<const Args&...>;
    using last = std::remove_cvref_t<std::tuple_element_t<sizeof...(Args) - 1, all>>;
    if constexpr (!detail::tensor_type<last>) {  // an axis given
      constexpr int A = last::value;
      const all t{args...};
      return detail::concat_tensors<A>(std::get<K>(t)...);
    } else {
      return detail::concat_tensors<0>(args...);
    }
  }(std::make_index_sequence<(detail::tensor_type<std::remove_cvref_t<std::tuple_element_t<sizeof...(Args) - 1, std::tuple<Args...>>>> ? sizeof...(Args) : sizeof...(Args) - 1)>{});
}

/// The tensors stacked along a new leading axis: jnp.stack.
template <detail::tensor_type X0, detail::tensor_type... X>
constexpr auto stack(const X0& x0, const X&... x) {
  return calx::concatenate(detail::with_leading_axis(x0), detail::with_leading_axis(x)...);
}

CALX_END_NAMESPACE

#endif // CALX_TENSOR_LAYOUT_HPP
