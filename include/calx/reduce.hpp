/// @file reduce.hpp
/// @brief `calx::sum` and `calx::mean`: over a runtime batch (a batched argument, or
/// vmap's result inside a traced function), over a std::array, or over plain numbers.
#ifndef CALX_REDUCE_HPP
#define CALX_REDUCE_HPP

#include <calx/config.hpp>
#include <calx/math.hpp>
#include <calx/ops/arithmetic.hpp>
#include <calx/ops/reduction.hpp>
#include <calx/tensor/reductions.hpp>
#include <calx/tracer.hpp>

#include <array>
#include <cstddef>
#include <iterator>
#include <type_traits>

CALX_BEGIN_NAMESPACE

struct sum_fn {
  /// The sum of a tensor's elements (a rank-0 tensor), or over one axis (`calx::axis<1>`).
  template <detail::tensor_type X>
  constexpr auto operator()(const X& x) const {
    return detail::sum_over<X, -1>(x);
  }
  template <detail::tensor_type X, int A>
  constexpr auto operator()(const X& x, detail::axis_t<A>) const {
    return detail::sum_over<X, A>(x);
  }
  /// The sum over the batch of a batched traced value.
  template <real_tracer T>
  constexpr tracer operator()(const T& x) const { return detail::emit<batch_sum_op>(x); }
  /// The sum of the elements of a std::array, or of a range of numbers.
  template <class R>
    requires requires(const R& r) { std::begin(r); std::end(r); }
  constexpr auto operator()(const R& r) const {
    using T = std::remove_cvref_t<decltype(*std::begin(r))>;
    if constexpr (real_tracer<T>) {
      T s{};  // symbolic zero: the empty sum
      for (const T& x : r) s = s + x;
      return s;
    } else {
      T s{};
      for (const T& x : r) s += x;
      return s;
    }
  }
};
/// `calx::sum(xs)`: see sum_fn.
inline constexpr sum_fn sum{};

struct mean_fn {
  template <detail::tensor_type X>
  constexpr auto operator()(const X& x) const {
    using T = typename X::value_type;
    return detail::sum_over<X, -1>(x) / static_cast<T>(X::size);
  }
  template <detail::tensor_type X, int A>
  constexpr auto operator()(const X& x, detail::axis_t<A>) const {
    using T = typename X::value_type;
    if constexpr (!detail::axis_in_range<X, A>())
      return detail::sum_over<X, A>(x);  // reported
    else
      return detail::sum_over<X, A>(x) / static_cast<T>(X::shape[A]);
  }
  template <real_tracer T>
  constexpr tracer operator()(const T& x) const {
    return detail::emit<batch_sum_op>(x) / detail::emit<batch_size_op>(x);
  }
  template <class R>
    requires requires(const R& r) { std::size(r); }
  constexpr auto operator()(const R& r) const {
    using T = std::remove_cvref_t<decltype(*std::begin(r))>;
    using count_t = std::conditional_t<std::is_floating_point_v<T>, T, double>;  // float stays float
    return sum(r) / static_cast<count_t>(std::size(r));
  }
};
/// `calx::mean(xs)`: the sum divided by the number of elements or samples.
inline constexpr mean_fn mean{};

CALX_END_NAMESPACE

#endif // CALX_REDUCE_HPP
