// The fix: a decomposition (or a vjp rule) in the op's traits.
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
  static constexpr auto decomposition(const auto& x) { return x * x * x; }
};
inline constexpr calx::op_fn<cube_op> cube{};

int main() {
  auto f = [](auto x) { return cube(x) + x; };
  double g = calx::grad(f)(2.0);
  (void)g;
}
