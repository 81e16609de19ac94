/// @file tensor/indexing.hpp
/// @brief Indexing by runtime values: `calx::take(x, idx, calx::axis<A>)` (a gather),
/// `calx::segment_sum<N>(data, ids)` (a scatter-add) and
/// `calx::dynamic_slice<S>(x, start, calx::axis<A>)`. Indices are integers known at run
/// time: an integer, an integer argument of a traced function (traced), a loop's index, or a
/// `calx::tensor<int, ...>` (any integer type), traced or not. Shapes stay compile-time:
/// a gather's result has the index tensor's shape in place of the axis. Out of range, an
/// index follows JAX (docs/tensors.md, "Indexing by runtime values").
#ifndef CALX_TENSOR_INDEXING_HPP
#define CALX_TENSOR_INDEXING_HPP

#include <calx/config.hpp>
#include <calx/detail/tensor/index_ops.hpp>
#include <calx/detail/tensor/tracing.hpp>
#include <calx/tensor_type.hpp>
#include <calx/tracer.hpp>

#include <concepts>
#include <cstddef>
#include <type_traits>

CALX_BEGIN_NAMESPACE

namespace detail {

/// An index tensor: a calx::tensor of integers, or of reals (a traced one computed in the
/// function; its values are truncated toward zero).
template <class I>
concept index_tensor = tensor_type<I> && (index_element<typename tensor_traits<std::remove_cvref_t<I>>::value_type> ||
                                          std::is_floating_point_v<typename tensor_traits<std::remove_cvref_t<I>>::value_type>);
/// One index: an integer, or a traced scalar (an integer argument of a traced function, a
/// loop's index).
template <class I>
concept index_scalar = (std::integral<std::remove_cvref_t<I>> && !std::same_as<std::remove_cvref_t<I>, bool>) || real_tracer<I>;

template <class I>
constexpr shape index_dims() {
  if constexpr (tensor_type<I>)
    return dims_v<I>;
  else
    return shape{};
}

/// The numbers of a gather along an axis (geometry `s` in the input): entry k of the result's
/// `count` entries is entry `entry(k)` of the input. take and dynamic_slice on numbers.
template <class T, class Entry>
constexpr void gather_entries(const axis_geometry& s, int count, const T* in, T* out, const Entry& entry) {
  for (int k = 0; k < count; ++k) {
    const int j = entry(k);
    for (int o = 0; o < s.outer; ++o)
      for (int i = 0; i < s.inner; ++i) out[(o * count + k) * s.inner + i] = in[s.at(o, j, i)];
  }
}

/// Indices that are neither an integer nor a tensor of them; the instantiation names the type.
template <class Fn, class I>
constexpr void indices_must_be_integers() {
  static_assert(index_tensor<I> || index_scalar<I>,
                "calx: indices must be integers: an int (or an integer argument of the traced function, a "
                "loop's index) or a calx::tensor<int, ...>; the call and the index type are the template arguments above");
}

template <class X, int A, class I>
struct taken_shape_of {
  static constexpr shape value = [] {
    const shape x = tensor_traits<X>::dims, idx = index_dims<I>();
    shape r{};
    for (int a = 0; a < A; ++a) r.extent[r.rank++] = x.extent[a];
    for (int a = 0; a < idx.rank; ++a) r.extent[r.rank++] = idx.extent[a];
    for (int a = A + 1; a < x.rank; ++a) r.extent[r.rank++] = x.extent[a];
    return r;
  }();
};

/// A take whose result would have more than 4 axes; the instantiation names the tensor,
/// the axis and the indices.
template <class X, int A, class I>
constexpr void take_result_rank() {
  static_assert(tensor_axes_ok<X, A> && tensor_shapes_ok<I>,
                "calx::take: the result (the tensor's axes with the indices' axes in place of the axis) would have "
                "more than 4 axes; the tensor, the axis and the indices are the template arguments above");
}

/// Entry `k` of index `i` (not traced) as a number; a traced scalar seen here is a symbolic
/// zero.
template <class I>
constexpr double index_number(const I& i, int k) {
  if constexpr (tensor_type<I>)
    return static_cast<double>(tensor_access::element(i, k));
  else if constexpr (real_tracer<I>)
    return 0.0;
  else
    return static_cast<double>(i);
}

/// The node of index `i` in `g` (a symbolic zero: the constant 0).
template <class I>
constexpr int index_id(graph& g, const I& i) {
  const int id = tensor_access::id_in(g, i);
  return id < 0 ? g.constant(0.0) : id;
}

struct take_fn {};
struct segment_sum_fn {};
struct dynamic_slice_fn {};

}  // namespace detail

/// The entries of `x` at `idx` along axis 0 (or `calx::axis<A>`): JAX's `jnp.take(x, idx,
/// axis)` in the clamping mode of `x[idx]`. With an index tensor the result has its axes in
/// place of the axis; with one integer, the axis is dropped (`x[i]`). An index below 0
/// counts from the end (-1: the last entry), then every index is clamped into range.
/// Differentiable in `x` (the cotangent is scattered back: entries taken twice add up),
/// under every transform and vmap.
template <detail::tensor_type X, class I, class... Axis>
constexpr auto take(const X& x, const I& idx, const Axis&...) {
  constexpr int A = sizeof...(Axis) == 0 ? 0 : detail::axis_of<X, Axis...>();
  using T = typename X::value_type;
  constexpr detail::shape xs = detail::tensor_traits<X>::dims;
  constexpr bool ok_index = detail::index_tensor<I> || detail::index_scalar<I>;
  if constexpr (!ok_index) {
    detail::indices_must_be_integers<detail::take_fn, I>();
    return X{};  // reported; zeros stand in
  } else if constexpr (!detail::axis_in_range<X, A>() || A < 0) {
    return X{};  // reported; zeros stand in
  } else if constexpr (xs.rank - 1 + detail::index_dims<I>().rank > 4) {
    detail::take_result_rank<X, A, I>();
    return X{};
  } else {
    using R = detail::tensor_of_t<T, detail::taken_shape_of<X, A, I>>;
    if (detail::graph* g = detail::tensor_graph(x, idx))
      return detail::tensor_access::make_traced<R>(
          g, detail::gather(*g, detail::tensor_access::id_in(*g, x), detail::index_id(*g, idx), A, detail::index_mode::clamp));
    return detail::returned<R>([&](R& r) {
      constexpr detail::axis_geometry s = detail::axis_geometry::of(xs, A);
      detail::gather_entries(s, detail::index_dims<I>().size(), detail::tensor_access::elements(const_cast<X&>(x)),
                             detail::tensor_access::elements(r),
                             [&](int k) { return detail::clamped_index(detail::index_number(idx, k), s.n, s.n - 1); });
    });
  }
}

namespace detail {
/// Segment ids that do not match the data's first axis; the instantiation names both.
template <class D, class I>
constexpr void segment_ids_shape() {
  static_assert(tensor_shapes_ok<D, I>,
                "calx::segment_sum: the segment ids must be a vector with one id per entry of the data's first "
                "axis; the data and the ids are the template arguments above");
}
template <std::size_t N, class D>
struct segmented_shape_of {
  static constexpr shape value = [] {
    shape s = tensor_traits<D>::dims;
    s.extent[0] = static_cast<std::int32_t>(N);
    return s;
  }();
};
}  // namespace detail

/// The sums of the entries of `data` along its first axis by segment: entry k is added to
/// entry `ids[k]` of the result, which has `N` entries there (JAX's
/// `jax.ops.segment_sum(data, ids, N)`). An id outside [0, N) is dropped. `ids` is a vector of
/// integers with one id per entry; they need not be sorted. Differentiable in `data` (its
/// cotangent is the result's, gathered by id).
template <std::size_t N, detail::tensor_type D, class I>
constexpr auto segment_sum(const D& data, const I& ids) {
  using T = typename D::value_type;
  constexpr detail::shape ds = detail::tensor_traits<D>::dims;
  if constexpr (!detail::index_tensor<I>) {
    detail::indices_must_be_integers<detail::segment_sum_fn, I>();
    return D{};
  } else if constexpr (ds.rank == 0 || detail::index_dims<I>().rank != 1 || detail::index_dims<I>().extent[0] != ds.extent[0] ||
                       N < 1) {
    detail::segment_ids_shape<D, I>();
    return D{};
  } else {
    using R = detail::tensor_of_t<T, detail::segmented_shape_of<N, D>>;
    if (detail::graph* g = detail::tensor_graph(data, ids))
      return detail::tensor_access::make_traced<R>(
          g, detail::scatter_add(*g, detail::tensor_access::id_in(*g, data), detail::index_id(*g, ids), 0, static_cast<int>(N),
                                 detail::index_mode::drop));
    return detail::returned<R>([&](R& r) {
      constexpr int count = ds.extent[0], inner = ds.stride(0);
      const T* in = detail::tensor_access::elements(const_cast<D&>(data));
      T* out = detail::tensor_access::elements(r);
      for (int k = 0; k < count; ++k) {
        const int j = detail::kept_index(detail::index_number(ids, k), static_cast<int>(N));
        if (j >= 0)
          for (int i = 0; i < inner; ++i) out[j * inner + i] += in[k * inner + i];
      }
    });
  }
}

namespace detail {
/// A dynamic_slice longer than its axis (or empty); the instantiation names the tensor, the
/// axis and the size.
template <class X, int A, std::size_t S>
constexpr void dynamic_slice_size() {
  static_assert(tensor_axes_ok<X, A>,
                "calx::dynamic_slice: the size must be at least 1 and at most the axis's extent; the tensor, the "
                "axis and the size are the template arguments above");
}
template <class X, int A, std::size_t S>
struct dynamic_sliced_shape_of {
  static constexpr shape value = [] {
    shape s = tensor_traits<X>::dims;
    s.extent[A] = static_cast<std::int32_t>(S);
    return s;
  }();
};
}  // namespace detail

/// `S` entries of `x` along axis 0 (or `calx::axis<A>`) from entry `start`, an integer known
/// at run time (JAX's `lax.dynamic_slice_in_dim(x, start, S, axis)`): a negative start counts
/// from the end, then the start is clamped so that the slice lies in the tensor.
/// Differentiable in `x` (its cotangent is the slice's, padded with zeros).
template <std::size_t S, detail::tensor_type X, class I, class... Axis>
constexpr auto dynamic_slice(const X& x, const I& start, const Axis&...) {
  constexpr int A = sizeof...(Axis) == 0 ? 0 : detail::axis_of<X, Axis...>();
  using T = typename X::value_type;
  constexpr detail::shape xs = detail::tensor_traits<X>::dims;
  if constexpr (!detail::index_scalar<I>) {
    detail::indices_must_be_integers<detail::dynamic_slice_fn, I>();
    return X{};
  } else if constexpr (!detail::axis_in_range<X, A>() || A < 0) {
    return X{};  // reported; zeros stand in
  } else if constexpr (S < 1 || S > static_cast<std::size_t>(xs.extent[A])) {
    detail::dynamic_slice_size<X, A, S>();
    return X{};
  } else {
    using R = detail::tensor_of_t<T, detail::dynamic_sliced_shape_of<X, A, S>>;
    if (detail::graph* g = detail::tensor_graph(x, start))
      return detail::tensor_access::make_traced<R>(
          g, detail::dynamic_slice(*g, detail::tensor_access::id_in(*g, x), detail::index_id(*g, start), A, static_cast<int>(S)));
    return detail::returned<R>([&](R& r) {
      constexpr detail::axis_geometry s = detail::axis_geometry::of(xs, A);
      constexpr int size = static_cast<int>(S);
      const int b = detail::clamped_index(detail::index_number(start, 0), s.n, s.n - size);
      detail::gather_entries(s, size, detail::tensor_access::elements(const_cast<X&>(x)), detail::tensor_access::elements(r),
                             [&](int k) { return b + k; });
    });
  }
}

CALX_END_NAMESPACE

#endif  // CALX_TENSOR_INDEXING_HPP
