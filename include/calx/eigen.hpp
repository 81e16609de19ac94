/// @file eigen.hpp
/// @brief Fixed-size Eigen matrices and arrays as arguments and results of every calx
/// transform, and conversions between `calx::tensor` and Eigen. Optional: needs Eigen 3
/// (Debian's libeigen3-dev); docs/eigen.md.
///
/// `calx::grad(f)(v)` of an `Eigen::Vector3d` is an `Eigen::Vector3d`; `calx::jacfwd(g)(v)` of
/// `g: Vector3d -> Vector2d` an `Eigen::Matrix<double, 2, 3>`; `calx::vmap(f)` maps over a
/// `std::vector<Eigen::Vector3d>`. The function calx traces receives each Eigen argument as a
/// `calx::eigen::traced` (calx/eigen/traced.hpp: Eigen's API on traced coefficients) and
/// returns one (or a `calx::eigen::scalar`) for each Eigen result.
#ifndef CALX_EIGEN_HPP
#define CALX_EIGEN_HPP

#include <calx/calx.hpp>
#include <calx/config.hpp>
#include <calx/eigen/traced.hpp>
#include <calx/eigen/tree.hpp>
#include <calx/tensor_type.hpp>

#include <Eigen/Core>

#include <cstddef>
#include <type_traits>

CALX_BEGIN_NAMESPACE

namespace eigen {

namespace detail {
template <class E, class T>
struct rebind_scalar;
// Traced coefficients give the traced form; any other number type (float, double, a Ceres
// Jet, Eigen's AutoDiffScalar) the Eigen type of it.
template <class T>
inline constexpr bool traced_coefficient_v = std::is_same_v<T, scalar> || real_tracer<T>;
template <class S, int R, int C, int O, int MR, int MC, class T>
struct rebind_scalar<Eigen::Matrix<S, R, C, O, MR, MC>, T> {
  using type = std::conditional_t<traced_coefficient_v<T>, traced<R, C, kind::matrix, O>, Eigen::Matrix<T, R, C, O>>;
};
template <class S, int R, int C, int O, int MR, int MC, class T>
struct rebind_scalar<Eigen::Array<S, R, C, O, MR, MC>, T> {
  using type = std::conditional_t<traced_coefficient_v<T>, traced<R, C, kind::array, O>, Eigen::Array<T, R, C, O>>;
};

/// The Eigen matrix type (row-major where it has two axes) whose storage is a tensor's.
template <class T, std::size_t... D>
struct map_type;
template <class T, std::size_t N>
struct map_type<T, N> {
  using type = Eigen::Matrix<T, static_cast<int>(N), 1>;
};
template <class T, std::size_t R, std::size_t C>
struct map_type<T, R, C> {
  using type = Eigen::Matrix<T, static_cast<int>(R), static_cast<int>(C), C == 1 ? Eigen::ColMajor : Eigen::RowMajor>;
};
}  // namespace detail

/// Eigen type `E` with coefficients of type `T`: its traced form for a traced `T`
/// (`calx::eigen::scalar`), an Eigen type of `T` for any other (float, double, a Ceres Jet),
/// so that one function template spells its values for all (`rebind_t<Eigen::Vector2d, T>
/// r(a, b);`).
template <class E, class T>
using rebind_t = typename detail::rebind_scalar<std::remove_cvref_t<E>, std::remove_cvref_t<T>>::type;

/// A tensor of one or two axes as an Eigen matrix, without a copy: an `Eigen::Map` of its
/// storage (row-major, as a tensor's is). Const for a const tensor.
template <class T, std::size_t... D>
  requires(sizeof...(D) == 1 || sizeof...(D) == 2)
Eigen::Map<typename detail::map_type<T, D...>::type> map(tensor<T, D...>& t) {
  return Eigen::Map<typename detail::map_type<T, D...>::type>(t.data());
}
template <class T, std::size_t... D>
  requires(sizeof...(D) == 1 || sizeof...(D) == 2)
Eigen::Map<const typename detail::map_type<T, D...>::type> map(const tensor<T, D...>& t) {
  return Eigen::Map<const typename detail::map_type<T, D...>::type>(t.data());
}

/// A fixed-size Eigen matrix or array (or a map of one) as a tensor of its shape (a vector:
/// one axis), coefficients row by row. A copy: a tensor owns its numbers. (A transform reads
/// Eigen arguments in place; this is for tensor code.)
template <class E>
  requires std::is_floating_point_v<typename detail::fixed_shape<std::remove_cvref_t<E>>::scalar_type>
auto to_tensor(const E& m) {
  using shape = detail::fixed_shape<std::remove_cvref_t<E>>;
  using S = typename shape::scalar_type;
  detail::tensor_after<S, shape::rows, shape::cols> t;
  std::size_t k = 0;
  for (int i = 0; i < shape::rows; ++i)
    for (int j = 0; j < shape::cols; ++j) t.data()[k++] = m(i, j);
  return t;
}
template <class M, int MO, class St>
  requires std::is_floating_point_v<typename detail::fixed_shape<std::remove_const_t<M>>::scalar_type>
auto to_tensor(const Eigen::Map<M, MO, St>& m) {
  return to_tensor(std::remove_const_t<M>(m));
}

/// A tensor of one or two axes as an Eigen matrix of its own, in Eigen's default storage
/// order (a copy; `map` is the view).
template <class T, std::size_t... D>
  requires(sizeof...(D) == 1 || sizeof...(D) == 2)
auto to_eigen(const tensor<T, D...>& t) {
  using M = typename detail::map_type<T, D...>::type;
  return Eigen::Matrix<T, M::RowsAtCompileTime, M::ColsAtCompileTime>(map(t));
}

}  // namespace eigen

CALX_END_NAMESPACE

#endif  // CALX_EIGEN_HPP
