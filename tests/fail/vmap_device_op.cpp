// A user op with a scalar kernel and no decomposition, in a vmap over device memory: its
// kernel is a host function, which device code cannot call. The error names the op.
// EXPECT: device_code_needs_a_builtin_op_or_op_traits_decomposition_for.*cube_op
// ERRORS: 1
#define CALX_DEVICE_ON_HOST 1
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
  double x[4] = {1, 2, 3, 4}, out[4] = {};
  calx::device_span<double> o(out, 4);
  calx::vmap([](auto v) { return cube(v); }).into(o)(calx::device_span<const double>(x, 4));
}
