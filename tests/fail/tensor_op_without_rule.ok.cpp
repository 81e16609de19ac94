// The fix: a vjp rule (or a decomposition) in the op's traits.
#include <calx/calx.hpp>
#include <calx/tensor.hpp>
#include <calx/tensor_op.hpp>

struct reverse_op {};
inline constexpr calx::tensor_op_fn<reverse_op> reverse{};  // before the traits: its vjp calls it
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
  static constexpr auto vjp(const auto& ct, const auto&, const auto&) { return std::array{reverse(ct)}; }
};

int main() {
  auto f = [](const auto& x) { return calx::sum(reverse(x) * x); };
  auto g = calx::grad(f)(calx::tensor<double, 4>{});
  (void)g;
}
