/// @file tensor/reductions.hpp
/// @brief Reductions of tensors over every axis or one: sums (`calx::sum` and `calx::mean`, in
/// calx/reduce.hpp, call `detail::sum_over`), `max`, `min` and `prod`; and `logsumexp`,
/// `softmax`, `log_softmax` and `norm`, written with them so that their rules come along.
#ifndef CALX_TENSOR_REDUCTIONS_HPP
#define CALX_TENSOR_REDUCTIONS_HPP

#include <calx/config.hpp>
#include <calx/tensor/layout.hpp>
#include <calx/tensor_type.hpp>

#include <cstddef>
#include <limits>
#include <type_traits>

CALX_BEGIN_NAMESPACE

namespace detail {

template <class X, int A>
constexpr reduced_t<X, A> sum_over(const X& x) {
  using T = typename tensor_traits<X>::value_type;
  if constexpr (!axis_in_range<X, A>()) return {};  // reported; zeros stand in
  else
    return tensor_op_call<reduced_t<X, A>>([](graph& g, int id) { return reduce_sum(g, id, A); },
                                           [](T* out, const T* in) {
                                             reduce_loop(
                                                 tensor_traits<X>::dims, A, [&](int e) { return in[e]; },
                                                 [&](int o, T v) { out[o] = v; }, [](T acc, T v) { return acc + v; });
                                           },
                                           x);
}

template <class Op, class X, class... Axis>
constexpr auto tensor_reduce(const X& x, const Axis&...) {
  constexpr int A = axis_of<X, Axis...>();
  constexpr bool is_max = std::is_same_v<Op, max_op>;
  using T = typename tensor_traits<X>::value_type;
  if constexpr (!axis_in_range<X, A>()) return reduced_t<X, A>{};  // reported; zeros stand in
  else
    return tensor_op_call<reduced_t<X, A>>([](graph& g, int id) { return reduce_extremum(g, id, A, is_max); },
                                           [](T* out, const T* in) {
                                             reduce_loop(
                                                 tensor_traits<X>::dims, A, [&](int e) { return in[e]; },
                                                 [&](int o, T v) { out[o] = v; },
                                                 [](T acc, T v) { return apply<Op>(acc, v); });
                                           },
                                           x);
}

template <class X, int A>
struct kept_shape_of {
  static constexpr shape value = [] {
    shape s = tensor_traits<X>::dims;
    s.extent[A] = 1;
    return s;
  }();
};

/// A reduction's result with the reduced axis back as extent 1 (NumPy's keepdims), so that
/// it broadcasts against the tensor it came from.
template <int A, class X, class R>
constexpr auto keep_axis(const R& r) {
  if constexpr (A < 0) {
    return r;
  } else if constexpr (!axis_in_range<X, A>()) {
    return X{};  // reported; zeros stand in
  } else {
    return reshaped<tensor_of_t<typename tensor_traits<X>::value_type, kept_shape_of<X, A>>>(r);
  }
}
}  // namespace detail

// ---- softmax and friends: written with the ops above, so their rules come with them -----

/// log(sum(exp(x))) over every axis or `calx::axis<A>`, computed stably (the max is taken
/// out first, as jax.nn.logsumexp does, and does not take part in differentiation).
template <detail::tensor_type X, class... Axis>
constexpr auto logsumexp(const X& x, const Axis&... axis) {
  constexpr int A = detail::axis_of<X, Axis...>();
  using T = typename detail::tensor_traits<X>::value_type;
  const auto m0 = calx::max(x, axis...);
  // Rows whose max is not finite (inf, -inf, NaN) take 0, as jax.nn.logsumexp's
  // isfinite(max): finite maxima of any size (1.5e308 too) are taken out.
  const auto m = calx::stop_gradient(calx::where(calx::abs(m0) <= std::numeric_limits<T>::max(), m0, T(0)));
  return calx::log(detail::sum_over<X, A>(calx::exp(x - detail::keep_axis<A, X>(m)))) + m;
}

/// exp(x) / sum(exp(x)) over every axis or `calx::axis<A>`.
template <detail::tensor_type X, class... Axis>
constexpr X softmax(const X& x, const Axis&... axis) {
  constexpr int A = detail::axis_of<X, Axis...>();
  return calx::exp(x - detail::keep_axis<A, X>(calx::logsumexp(x, axis...)));
}

/// x - logsumexp(x) over every axis or `calx::axis<A>`.
template <detail::tensor_type X, class... Axis>
constexpr X log_softmax(const X& x, const Axis&... axis) {
  constexpr int A = detail::axis_of<X, Axis...>();
  return x - detail::keep_axis<A, X>(calx::logsumexp(x, axis...));
}

/// The Euclidean (Frobenius) norm, sqrt(sum(x * x)); its derivative at 0 is NaN, as JAX's.
template <detail::tensor_type X>
constexpr auto norm(const X& x) {
  return calx::sqrt(detail::sum_over<X, -1>(x * x));
}

// ---- prod: written with slices and products, so its rules are theirs ---------------------

namespace detail {
/// The product over axis A of `x`, the axis kept with extent 1: the two halves multiplied
/// elementwise until one element is left (an odd last element is set aside and multiplied in
/// at the end). log2(extent) steps, each a few nodes; no division, so a zero factor gives the
/// exact derivative (the product of the others), at every order, as JAX's tree of products.
template <int A, class X>
constexpr auto prod_kept(const X& x) {
  constexpr int len = tensor_traits<X>::dims.extent[A];
  if constexpr (len == 1) {
    return x;
  } else if constexpr (len % 2 == 1) {
    return prod_kept<A>(calx::slice<0, len - 1>(x, axis<A>)) * calx::slice<len - 1, len>(x, axis<A>);
  } else {
    return prod_kept<A>(calx::slice<0, len / 2>(x, axis<A>) * calx::slice<len / 2, len>(x, axis<A>));
  }
}
}  // namespace detail

/// The product of a tensor's elements (a rank-0 tensor), or over `calx::axis<A>` (that axis
/// removed), as jnp.prod. Its derivative is the product of the other elements, exact where
/// some are zero.
template <detail::tensor_type X, class... Axis>
constexpr auto prod(const X& x, const Axis&...) {
  constexpr int A = detail::axis_of<X, Axis...>();
  if constexpr (A < 0)
    return calx::reshape<>(detail::prod_kept<0>(calx::reshape<X::size>(x)));
  else if constexpr (!detail::axis_in_range<X, A>())
    return detail::reduced_t<X, A>{};  // reported; zeros stand in
  else
    return detail::reshaped<detail::reduced_t<X, A>>(detail::prod_kept<A>(x));
}

CALX_END_NAMESPACE

#endif // CALX_TENSOR_REDUCTIONS_HPP
