/// @file examples/tensor_ops.cpp
/// @brief User tensor ops (calx/tensor_op.hpp): a cumulative sum with its own kernel and
/// rules, a 1-D convolution with a kernel and a decomposition; under grad, hessian and vmap,
/// checked against central differences. docs/extending.md ("A tensor op") quotes it (CTest
/// docs.snippets.extending), and CTest example.tensor_ops compares the output with
/// examples/tensor_ops.out.
#include <calx/calx.hpp>
#include <calx/tensor.hpp>
#include <calx/tensor_op.hpp>

#include <array>
#include <cmath>
#include <cstddef>
#include <cstdio>
#include <optional>
#include <utility>
#include <vector>

// [cumsum]
namespace mylib {
struct cumsum_op {};  // y[i] = x[0] + ... + x[i]: a kernel of its own, rules written with itself
inline constexpr calx::tensor_op_fn<cumsum_op> cumsum{};
}  // namespace mylib

template <>
struct calx::op_traits<mylib::cumsum_op> {
  static constexpr const char* name = "cumsum";
  static constexpr int arity = 1;
  static constexpr std::optional<calx::shape> result_shape(calx::shape x) {
    if (x.rank != 1) return std::nullopt;  // vectors only
    return x;
  }
  template <class T, std::size_t N>
  static constexpr calx::tensor<T, N> kernel(const calx::tensor<T, N>& x) {
    calx::tensor<T, N> y;
    T acc = 0;
    for (std::size_t i = 0; i < N; ++i) y[i] = acc += x[i];
    return y;
  }
  static constexpr auto jvp(const auto&, const auto&, const auto& t) { return mylib::cumsum(t); }
  // The transpose: sums from the end, ct[i] + ... + ct[N-1].
  static constexpr auto vjp(const auto& ct, const auto&, const auto&) {
    return std::array{calx::sum(ct) - mylib::cumsum(ct) + ct};
  }
};
// [cumsum]

// [conv1d]
namespace mylib {
struct conv1d_op {};  // y[i] = sum_j x[i + j] k[j]: a kernel and a decomposition
inline constexpr calx::tensor_op_fn<conv1d_op> conv1d{};
}  // namespace mylib

template <>
struct calx::op_traits<mylib::conv1d_op> {
  static constexpr const char* name = "conv1d";
  static constexpr int arity = 2;
  static constexpr std::optional<calx::shape> result_shape(calx::shape x, calx::shape k) {
    if (x.rank != 1 || k.rank != 1 || k[0] > x[0]) return std::nullopt;
    return calx::shape_of(x[0] - k[0] + 1);
  }
  template <class T, std::size_t N, std::size_t K>
  static constexpr calx::tensor<T, N - K + 1> kernel(const calx::tensor<T, N>& x, const calx::tensor<T, K>& k) {
    calx::tensor<T, N - K + 1> y;
    for (std::size_t i = 0; i + K <= N; ++i)
      for (std::size_t j = 0; j < K; ++j) y[i] += x[i + j] * k[j];
    return y;
  }
  // The same with built-in ops: K shifted slices, scaled and added.
  template <class T, std::size_t N, std::size_t K>
  static constexpr calx::tensor<T, N - K + 1> decomposition(const calx::tensor<T, N>& x, const calx::tensor<T, K>& k) {
    return [&]<std::size_t... J>(std::index_sequence<J...>) {
      return ((calx::slice<J, J + N - K + 1>(x) * k(J)) + ...);
    }(std::make_index_sequence<K>{});
  }
};
// [conv1d]

namespace {

template <class Program>
void show_ir(const Program& program) {
  std::printf("%s\n", calx::to_string(program).c_str());
}

void user_tensor_ops() {
  // [tensor ops use]
  constexpr auto f = [](const auto& x, const auto& k) {
    return calx::sum(calx::tanh(mylib::cumsum(mylib::conv1d(x, k))));
  };
  calx::tensor<double, 6> x;
  calx::tensor<double, 3> k;
  const double xv[] = {0.5, -1.0, 2.0, 0.25, -0.75, 1.5}, kv[] = {1.0, -2.0, 0.5};
  for (std::size_t i = 0; i < 6; ++i) x[i] = xv[i];
  for (std::size_t i = 0; i < 3; ++i) k[i] = kv[i];
  std::printf("f(x, k) = %.6f (on numbers, the kernels run)\n", double(f(x, k)));
  show_ir(calx::trace(f, x, k));  // one cumsum node, one conv1d node
  const auto [gx, gk] = calx::grad(f, calx::argnums<0, 1>)(x, k);
  // [tensor ops use]
  std::printf("grad x = {%.6f, %.6f, %.6f, %.6f, %.6f, %.6f}\n", gx[0], gx[1], gx[2], gx[3], gx[4], gx[5]);
  std::printf("grad k = {%.6f, %.6f, %.6f}\n", gk[0], gk[1], gk[2]);
  // Against central differences (h = 1e-6; agreement to ~1e-9 expected).
  double worst = 0;
  for (std::size_t i = 0; i < 3; ++i) {
    auto up = k, down = k;
    up[i] += 1e-6;
    down[i] -= 1e-6;
    worst = std::fmax(worst, std::fabs((double(f(x, up)) - double(f(x, down))) / 2e-6 - gk[i]));
  }
  std::printf("central differences agree with grad k: %s\n", worst < 1e-7 ? "yes" : "no");
  // Second order, and per sample under vmap (the kernels run lane by lane).
  const auto h = calx::hessian(f, calx::argnums<1>)(x, k);  // 3 x 3
  std::printf("hessian in k, diagonal = {%.6f, %.6f, %.6f}\n", h[0], h[4], h[8]);
  const std::vector<calx::tensor<double, 6>> xs{x, x * 2.0, -x};
  const auto ys = calx::vmap(f, calx::in_axes<0, calx::none>)(xs, k);
  std::printf("vmap over 3 signals = {%.6f, %.6f, %.6f}\n", double(ys[0]), double(ys[1]), double(ys[2]));
}

}  // namespace

int main() {
  std::printf("# Tensor ops: cumsum and conv1d\n\n");
  user_tensor_ops();
}
