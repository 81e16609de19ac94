/// @file tests/_include/user_tensor_ops.hpp
/// @brief User tensor ops for the tests (calx/tensor_op.hpp): a cumulative sum with its own
/// kernel and rules (each op's vjp is the other one), a 1-D convolution with a kernel and a
/// decomposition only, the same functions written with built-in ops, and helpers.
#ifndef CALX_TESTS_USER_TENSOR_OPS_HPP
#define CALX_TESTS_USER_TENSOR_OPS_HPP

#include <calx/calx.hpp>
#include <calx/tensor.hpp>
#include <calx/tensor_op.hpp>

#include <array>
#include <cmath>
#include <cstddef>
#include <optional>
#include <type_traits>
#include <utility>

namespace tl {
struct cumsum_op {};        // y[i] = x[0] + ... + x[i]
struct suffix_sum_op {};    // y[i] = x[i] + ... + x[n-1]: cumsum's transpose
struct conv1d_op {};        // y[i] = sum_j x[i + j] k[j] ("valid" correlation)

inline constexpr calx::tensor_op_fn<cumsum_op> cumsum{};
inline constexpr calx::tensor_op_fn<suffix_sum_op> suffix_sum{};
inline constexpr calx::tensor_op_fn<conv1d_op> conv1d{};

/// Counts kernel runs on numbers: the tests check that generated code runs the kernel.
inline int cumsum_kernel_runs = 0;
}  // namespace tl

template <>
struct calx::op_traits<tl::cumsum_op> {
  static constexpr const char* name = "cumsum";
  static constexpr int arity = 1;
  static constexpr std::optional<calx::shape> result_shape(calx::shape x) {
    if (x.rank != 1) return std::nullopt;
    return x;
  }
  template <class X>
  static X kernel(const X& x) {
    ++tl::cumsum_kernel_runs;  // not constexpr: a kernel may call anything
    X y;
    typename X::value_type acc = 0;
    for (std::size_t i = 0; i < X::size; ++i) y[i] = acc += x[i];
    return y;
  }
  static constexpr auto jvp(const auto&, const auto&, const auto& t) { return tl::cumsum(t); }
  static constexpr auto vjp(const auto& ct, const auto&, const auto&) { return std::array{tl::suffix_sum(ct)}; }
};

template <>
struct calx::op_traits<tl::suffix_sum_op> {
  static constexpr const char* name = "suffix_sum";
  static constexpr int arity = 1;
  static constexpr std::optional<calx::shape> result_shape(calx::shape x) {
    if (x.rank != 1) return std::nullopt;
    return x;
  }
  template <class X>
  static constexpr X kernel(const X& x) {
    X y;
    typename X::value_type acc = 0;
    for (std::size_t i = X::size; i-- > 0;) y[i] = acc += x[i];
    return y;
  }
  static constexpr auto jvp(const auto&, const auto&, const auto& t) { return tl::suffix_sum(t); }
  static constexpr auto vjp(const auto& ct, const auto&, const auto&) { return std::array{tl::cumsum(ct)}; }
};

template <>
struct calx::op_traits<tl::conv1d_op> {
  static constexpr const char* name = "conv1d";
  static constexpr int arity = 2;
  static constexpr std::optional<calx::shape> result_shape(calx::shape x, calx::shape k) {
    if (x.rank != 1 || k.rank != 1 || k[0] > x[0]) return std::nullopt;
    return calx::shape_of(x[0] - k[0] + 1);
  }
  template <class T, std::size_t N, std::size_t K>
  static constexpr calx::tensor<T, N - K + 1> kernel(const calx::tensor<T, N>& x, const calx::tensor<T, K>& k) {
    calx::tensor<T, N - K + 1> y;
    for (std::size_t i = 0; i < N - K + 1; ++i) {
      T acc = 0;
      for (std::size_t j = 0; j < K; ++j) acc += x[i + j] * k[j];
      y[i] = acc;
    }
    return y;
  }
  // No jvp or vjp: both come from transforming this.
  template <class T, std::size_t N, std::size_t K>
  static constexpr calx::tensor<T, N - K + 1> decomposition(const calx::tensor<T, N>& x, const calx::tensor<T, K>& k) {
    return [&]<std::size_t... J>(std::index_sequence<J...>) {
      return ((calx::slice<J, J + N - K + 1>(x) * k(J)) + ...);
    }(std::make_index_sequence<K>{});
  }
};

namespace tensor_op_test {

using vec8 = calx::tensor<double, 8>;
using vec3 = calx::tensor<double, 3>;

inline vec8 sample8(double seed) {
  vec8 x;
  for (std::size_t i = 0; i < 8; ++i) x[i] = std::sin(seed + 1.3 * static_cast<double>(i)) * 1.5;
  return x;
}

// The same functions with the user ops and written with built-ins.
constexpr auto with_cumsum = [](const auto& x) { return calx::sum(calx::tanh(tl::cumsum(x)) * x); };
constexpr auto cumsum_builtin = [](const auto& x) {
  using X = std::remove_cvref_t<decltype(x)>;
  // cumsum as a lower-triangular matrix of ones times x
  calx::tensor<typename X::value_type, 8, 8> lower;
  for (std::size_t i = 0; i < 8; ++i)
    for (std::size_t j = 0; j <= i; ++j) lower[i * 8 + j] = 1;
  return calx::matvec(lower, x);
};
constexpr auto with_cumsum_builtin = [](const auto& x) { return calx::sum(calx::tanh(cumsum_builtin(x)) * x); };

constexpr auto with_conv = [](const auto& x, const auto& k) { return calx::sum(calx::sin(tl::conv1d(x, k))); };
constexpr auto with_conv_builtin = [](const auto& x, const auto& k) {
  return calx::sum(calx::sin(calx::slice<0, 6>(x) * k(0) + calx::slice<1, 7>(x) * k(1) + calx::slice<2, 8>(x) * k(2)));
};

/// Central differences of scalar function `f` in argument `x` (others fixed), h = 1e-6.
template <class F, class X, class... R>
X central_difference(F f, X x, const R&... rest) {
  X g;
  for (std::size_t i = 0; i < X::size; ++i) {
    X up = x, down = x;
    up[i] += 1e-6;
    down[i] -= 1e-6;
    g[i] = (double(f(up, rest...)) - double(f(down, rest...))) / 2e-6;
  }
  return g;
}

template <class A, class B>
double max_diff(const A& a, const B& b) {
  double m = 0;
  for (std::size_t i = 0; i < A::size; ++i) m = std::fmax(m, std::fabs(double(a[i]) - double(b[i])));
  return m;
}

}  // namespace tensor_op_test


#endif  // CALX_TESTS_USER_TENSOR_OPS_HPP
