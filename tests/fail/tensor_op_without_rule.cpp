// A user tensor op with a kernel but neither a vjp rule nor a decomposition, under grad: the
// error names the mode, what op_traits needs, and the op.
// EXPECT: reverse_mode_needs_op_traits_vjp_or_decomposition_for.*reverse_op
// ERRORS: 1
#include <calx/calx.hpp>
#include <calx/tensor.hpp>
#include <calx/tensor_op.hpp>

struct reverse_op {};
template <>
struct calx::op_traits<reverse_op> {
  static constexpr const char* name = "reverse";
  static constexpr int arity = 1;
  static constexpr std::optional<calx::shape> result_shape(calx::shape x) { return x; }
  template <class T, std::size_t N>
  static calx::tensor<T, N> kernel(const calx::tensor<T, N>& x) {
    calx::tensor<T, N> y;
    for (std::size_t i = 0; i < N; ++i) y[i] = x[N - 1 - i];
    return y;
  }
};
inline constexpr calx::tensor_op_fn<reverse_op> reverse{};

int main() {
  auto f = [](const auto& x) { return calx::sum(reverse(x) * x); };
  auto g = calx::grad(f)(calx::tensor<double, 4>{});
  (void)g;
}
