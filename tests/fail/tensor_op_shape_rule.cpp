// A user tensor op called on shapes its shape rule rejects (a kernel longer than the
// signal): one message, naming the op and both operands' tensor types (the template
// arguments of calx::detail::tensor_op_shape_rule_rejects).
// EXPECT: calx: this tensor op's shape rule
// EXPECT: tensor_op_shape_rule_rejects.*conv_op.*tensor<double, 3>.*tensor<double, 5>
// ERRORS: 1
#include <calx/calx.hpp>
#include <calx/tensor.hpp>
#include <calx/tensor_op.hpp>

struct conv_op {};
template <>
struct calx::op_traits<conv_op> {
  static constexpr const char* name = "conv";
  static constexpr int arity = 2;
  static constexpr std::optional<calx::shape> result_shape(calx::shape x, calx::shape k) {
    if (x.rank != 1 || k.rank != 1 || k[0] > x[0]) return std::nullopt;
    return calx::shape_of(x[0] - k[0] + 1);
  }
  template <class T, std::size_t N, std::size_t K>
  static constexpr calx::tensor<T, N - K + 1> decomposition(const calx::tensor<T, N>& x, const calx::tensor<T, K>& k) {
    return [&]<std::size_t... J>(std::index_sequence<J...>) {
      return ((calx::slice<J, J + N - K + 1>(x) * k(J)) + ...);
    }(std::make_index_sequence<K>{});
  }
};
inline constexpr calx::tensor_op_fn<conv_op> conv{};

int main() {
  constexpr auto f = [](const auto& x, const auto& k) { return calx::sum(conv(x, k)); };
  auto g = calx::grad(f)(calx::tensor<double, 3>{}, calx::tensor<double, 5>{});
  (void)g;
}
