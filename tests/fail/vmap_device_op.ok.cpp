// The fix: give the op a decomposition (device code runs it; the host keeps the kernel).
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
  static constexpr auto decomposition(const auto& x) { return x * x * x; }
};
inline constexpr calx::op_fn<cube_op> cube{};

int main() {
  double x[4] = {1, 2, 3, 4}, out[4] = {};
  calx::device_span<double> o(out, 4);
  calx::vmap([](auto v) { return cube(v); }).into(o)(calx::device_span<const double>(x, 4));
}
