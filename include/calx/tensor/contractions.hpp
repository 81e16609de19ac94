/// @file tensor/contractions.hpp
/// @brief Contractions of tensors: `matvec`, `matmul`, `dot` and `outer`, each one `tensordot` node
/// (detail/tensor/ir_ops.hpp); a mismatch of inner extents is one compile error naming both shapes.
#ifndef CALX_TENSOR_CONTRACTIONS_HPP
#define CALX_TENSOR_CONTRACTIONS_HPP

#include <calx/config.hpp>
#include <calx/tensor_type.hpp>

#include <cstddef>
#include <type_traits>

CALX_BEGIN_NAMESPACE

namespace detail {

template <class A, class B, int K>
constexpr shape contracted() {
  constexpr shape sa = tensor_traits<A>::dims, sb = tensor_traits<B>::dims;
  shape r{};
  for (int x = 0; x < sa.rank - K; ++x) r.extent[r.rank++] = sa.extent[x];
  for (int x = K; x < sb.rank; ++x) r.extent[r.rank++] = sb.extent[x];
  return r;
}

template <class A, class B, int K>
struct contracted_shape_of {
  static constexpr shape value = contracted<A, B, K>();
};

/// Contractions whose inner extents differ; the instantiation names both shapes.
template <class A, class B>
constexpr void shapes_contract() {
  static_assert(tensor_shapes_ok<A, B>, "calx: these tensor shapes cannot be contracted (the last extent of the "
                                       "first must equal the first extent of the second); the shapes are the "
                                       "template arguments above");
}

template <int K, class A, class B>
constexpr auto contract(const A& a, const B& b) {
  constexpr shape sa = tensor_traits<A>::dims, sb = tensor_traits<B>::dims;
  using T = typename tensor_traits<A>::value_type;
  using R = tensor_of_t<T, contracted_shape_of<A, B, K>>;
  if constexpr (K == 1 && sa.extent[sa.rank - 1] != sb.extent[0]) {
    shapes_contract<A, B>();
    return R{};  // zeros stand in: the message is the only error
  } else {
    return tensor_op_call<R>([](graph& g, int x, int y) { return tensordot(g, x, y, K); },
                           [](T* out, const T* x, const T* y) {
                             contract_in_memory<K, loops_of(K, tensor_traits<A>::dims, tensor_traits<B>::dims)>(x, y, out);
                           },
                           a, b);
  }
}
}  // namespace detail

/// Matrix times vector.
template <class T, std::size_t M, std::size_t N, std::size_t K>
constexpr tensor<T, M> matvec(const tensor<T, M, N>& a, const tensor<T, K>& x) {
  return detail::contract<1>(a, x);
}
/// Matrix product.
template <class T, std::size_t M, std::size_t N, std::size_t K, std::size_t P>
constexpr tensor<T, M, P> matmul(const tensor<T, M, N>& a, const tensor<T, K, P>& b) {
  return detail::contract<1>(a, b);
}
/// Inner product of vectors (a rank-0 tensor).
template <class T, std::size_t N, std::size_t K>
constexpr tensor<T> dot(const tensor<T, N>& a, const tensor<T, K>& b) {
  return detail::contract<1>(a, b);
}
/// Outer product of vectors.
template <class T, std::size_t M, std::size_t N>
constexpr tensor<T, M, N> outer(const tensor<T, M>& a, const tensor<T, N>& b) {
  return detail::contract<0>(a, b);
}

CALX_END_NAMESPACE

#endif // CALX_TENSOR_CONTRACTIONS_HPP
