// A user op with a kernel but neither a vjp rule nor a decomposition, under grad: the error
// names the mode, what op_traits needs, and the op.
// EXPECT: reverse_mode_needs_op_traits_vjp_or_decomposition_for.*cube_op
// ERRORS: 1
#include <calx/calx.hpp>

#include <concepts>

struct cube_op {};
template <>
struct calx::op_traits<cube_op> {
  static constexpr const char* name = "cube";
  static constexpr int arity = 1;
  template <std::floating_point T>
  static T kernel(T x) {
    return x * x * x;
  }
};
inline constexpr calx::op_fn<cube_op> cube{};

int main() {
  auto f = [](auto x) { return cube(x) + x; };
  double g = calx::grad(f)(2.0);
  (void)g;
}
