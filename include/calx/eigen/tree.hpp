/// @file eigen/tree.hpp
/// @brief Fixed-size `Eigen::Matrix`, `Eigen::Array` and `Eigen::Map`s of them as calx
/// structures (`calx::tree_node`), and their traced form, `calx::eigen::traced`. Each is an
/// array node of its coefficients row by row, whatever its storage order, read and written
/// in place (one address per coefficient: no copy); rebuilt with other leaves it keeps its
/// class template and storage order, so `grad` of an `Eigen::Vector3d` is one. A Jacobian's
/// layout (each coefficient of the output becomes the structure of the input): a vector of
/// vectors is an `Eigen::Matrix` (rows: the output's coefficients), a matrix in a matrix a
/// `calx::tensor` of the output's axes, then the input's (JAX's layout).
#ifndef CALX_EIGEN_TREE_HPP
#define CALX_EIGEN_TREE_HPP

#include <calx/config.hpp>
#include <calx/eigen/traced.hpp>
#include <calx/interop/scalar.hpp>
#include <calx/tensor_type.hpp>
#include <calx/tracer.hpp>
#include <calx/tree.hpp>

#include <Eigen/Core>

#include <array>
#include <cstddef>
#include <type_traits>

CALX_BEGIN_NAMESPACE

namespace eigen::detail {

/// The shape of a fixed-size Eigen type or a traced one (`known`: it is one).
template <class T>
struct fixed_shape {
  static constexpr bool known = false;
};
template <class S, int R, int C, int O, int MR, int MC>
  requires(R > 0 && C > 0)
struct fixed_shape<Eigen::Matrix<S, R, C, O, MR, MC>> {
  static constexpr bool known = true;
  using scalar_type = S;
  static constexpr int rows = R, cols = C, options = O;
  static constexpr kind family = kind::matrix;
};
template <class S, int R, int C, int O, int MR, int MC>
  requires(R > 0 && C > 0)
struct fixed_shape<Eigen::Array<S, R, C, O, MR, MC>> : fixed_shape<Eigen::Matrix<S, R, C, O, MR, MC>> {
  static constexpr kind family = kind::array;
};
template <int R, int C, kind K, int O>
struct fixed_shape<traced<R, C, K, O>> {
  static constexpr bool known = true;
  using scalar_type = tracer;
  static constexpr int rows = R, cols = C, options = O;
  static constexpr kind family = K;
};

/// The Eigen type of `S`s of family `K`.
template <class S, int R, int C, kind K, int O>
using eigen_t = std::conditional_t<K == kind::matrix, Eigen::Matrix<S, R, C, O>, Eigen::Array<S, R, C, O>>;

/// A calx::tensor of an R x C value's axes (a vector's one) followed by axes `E...`.
template <class S, int R, int C, std::size_t... E>
using tensor_after = std::conditional_t<R == 1 || C == 1, tensor<S, static_cast<std::size_t>(R * C), E...>,
                                        tensor<S, static_cast<std::size_t>(R), static_cast<std::size_t>(C), E...>>;

/// What an R x C value of family K becomes when each of its coefficients becomes a `U`
/// (`tree_node<T>::with`): see the file comment.
template <class U, int R, int C, kind K, int O>
struct rebind {
  using type = std::array<U, static_cast<std::size_t>(R * C)>;
};
template <class U, int R, int C, kind K, int O>
  requires std::is_floating_point_v<U>
struct rebind<U, R, C, K, O> {
  using type = eigen_t<U, R, C, K, O>;
};
template <class U, int R, int C, kind K, int O>
  requires real_tracer<U>
struct rebind<U, R, C, K, O> {
  using type = traced<R, C, K, O>;
};
template <class U, int R, int C, kind K, int O>
  requires fixed_shape<U>::known
struct rebind<U, R, C, K, O> {
  using shape = fixed_shape<U>;
  using S = typename shape::scalar_type;
  static constexpr bool vectors = (R == 1 || C == 1) && (shape::rows == 1 || shape::cols == 1);
  // A traced Jacobian entry is a tensor of doubles (a traced tensor's own type).
  using entry = std::conditional_t<std::is_same_v<S, tracer>, double, S>;
  using vector_jacobian = std::conditional_t<std::is_same_v<S, tracer>, traced<R * C, shape::rows * shape::cols, K>,
                                             eigen_t<entry, R * C, shape::rows * shape::cols, K,
                                                     default_options<R * C, shape::rows * shape::cols>>>;
  using type = std::conditional_t<
      vectors, vector_jacobian,
      std::conditional_t<shape::rows == 1 || shape::cols == 1,
                         tensor_after<entry, R, C, static_cast<std::size_t>(shape::rows * shape::cols)>,
                         tensor_after<entry, R, C, static_cast<std::size_t>(shape::rows),
                                      static_cast<std::size_t>(shape::cols)>>>;
};
template <class S, std::size_t... E, int R, int C, kind K, int O>
struct rebind<tensor<S, E...>, R, C, K, O> {
  using type = tensor_after<S, R, C, E...>;
};
template <class X, int R, int C, kind K, int O>
struct rebind<not_rebindable<X>, R, C, K, O> {
  using type = not_rebindable<eigen_t<double, R, C, K, O>>;
};

/// The tree node of an R x C value whose coefficients are `E`s: row by row, in place.
template <class E, int R, int C, kind K, int O>
struct node {
  using element = E;
  static constexpr std::size_t extent = static_cast<std::size_t>(R * C);
  /// Coefficient (k / C, k % C) where it is stored (a const map's `operator()` gives a copy).
  template <class T>
  static constexpr auto& at(T& t, std::size_t k) {
    const Eigen::Index i = static_cast<Eigen::Index>(k) / C, j = static_cast<Eigen::Index>(k) % C;
    constexpr bool row_major = (std::remove_const_t<T>::Flags & Eigen::RowMajorBit) != 0;
    return t.data()[row_major ? i * t.outerStride() + j * t.innerStride() : j * t.outerStride() + i * t.innerStride()];
  }
  template <template <class> class F>
  using with = typename rebind<F<E>, R, C, K, O>::type;
};

/// The tree library's view of a traced value's coefficients: tracers. A constant
/// coefficient (a zero of `Zero()`, a number written with `<<`) is made a constant node of
/// the value's trace when it is read as one (an output, an argument of an inner transform);
/// written (an input, a rebuilt result), it is the tracer assigned.
struct access {
  template <int R, int C, kind K, int O>
  static constexpr tracer& leaf(const traced<R, C, K, O>& t, std::size_t k) {
    auto& e = const_cast<traced<R, C, K, O>&>(t).e_;  // calx's own values: none is const
    if (!e[k].traced()) {
      ::calx::detail::graph* g = nullptr;
      for (const scalar& x : e)
        if (x.traced()) g = x.value.graph;
      // A zero with no trace is left as it is (a symbolic zero, or a tracer about to be
      // written): calx's marks of argument structures are const.
      if (g != nullptr) {
        e[k] = scalar(e[k].in(*g));
      } else if (e[k].constant != 0.0) {
        if (std::is_constant_evaluated())
          ::calx::detail::trace_error("calx::eigen: a traced Eigen value of constants only (no coefficient "
                                      "depends on the arguments) where traced values are read");
        e[k] = scalar{};
      }
    }
    return e[k].value;
  }
};

/// Dynamic-size matrices and arrays (Eigen::VectorXd, MatrixXd) are refused: calx compiles
/// for sizes known at compile time.
template <class E>
struct dynamic_node {
  template <class = void>
  static constexpr void refusal() {
    static_assert(::calx::detail::always_false_v<E>,
                  "calx::eigen: an Eigen matrix or array of dynamic size (Eigen::VectorXd, Eigen::MatrixXd) as "
                  "an argument; calx compiles a program for sizes known at compile time: use a fixed-size type "
                  "(Eigen::Vector3d, Eigen::Matrix<double, 6, 6>), or calx::tensor");
  }
};
}  // namespace eigen::detail

template <class S, int R, int C, int O, int MR, int MC>
  requires(R > 0 && C > 0)
struct tree_node<Eigen::Matrix<S, R, C, O, MR, MC>> : eigen::detail::node<S, R, C, eigen::kind::matrix, O> {};
template <class S, int R, int C, int O, int MR, int MC>
  requires(R > 0 && C > 0)
struct tree_node<Eigen::Array<S, R, C, O, MR, MC>> : eigen::detail::node<S, R, C, eigen::kind::array, O> {};
/// A map of a fixed-size matrix or array is read and written where it points; rebuilt (a
/// gradient), it is the mapped type.
template <class M, int MapOptions, class Stride>
  requires eigen::detail::fixed_shape<std::remove_const_t<M>>::known
struct tree_node<Eigen::Map<M, MapOptions, Stride>> : tree_node<std::remove_const_t<M>> {};

template <class S, int R, int C, int O, int MR, int MC>
  requires(R == Eigen::Dynamic || C == Eigen::Dynamic)
struct tree_node<Eigen::Matrix<S, R, C, O, MR, MC>> : eigen::detail::dynamic_node<Eigen::Matrix<S, R, C, O, MR, MC>> {};
template <class S, int R, int C, int O, int MR, int MC>
  requires(R == Eigen::Dynamic || C == Eigen::Dynamic)
struct tree_node<Eigen::Array<S, R, C, O, MR, MC>> : eigen::detail::dynamic_node<Eigen::Array<S, R, C, O, MR, MC>> {};

template <int R, int C, eigen::kind K, int O>
struct tree_node<eigen::traced<R, C, K, O>> : eigen::detail::node<tracer, R, C, K, O> {
  template <class T>
  static constexpr tracer& at(T& t, std::size_t k) {
    return eigen::detail::access::leaf(t, k);
  }
};

/// A scalar result of code on traced Eigen values (`v.squaredNorm()`): one traced leaf.
template <>
struct tree_node<interop::scalar> {
  using element = tracer;
  static constexpr std::size_t extent = 1;
  template <class T>
  static constexpr tracer& at(T& t, std::size_t) {
    auto& s = const_cast<interop::scalar&>(t);  // calx's own values: none is const
    if (!s.traced() && s.constant != 0.0) {
      if (std::is_constant_evaluated())
        ::calx::detail::trace_error("calx::eigen: a constant scalar result (it depends on no argument) where "
                                    "traced values are read");
      s = interop::scalar{};
    }
    return s.value;
  }
  template <template <class> class F>
  using with = F<tracer>;
};

CALX_END_NAMESPACE

#endif  // CALX_EIGEN_TREE_HPP
