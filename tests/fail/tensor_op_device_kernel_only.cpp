// A user tensor op with a kernel but no decomposition, in device code (vmap over
// calx::device_span; CALX_DEVICE_ON_HOST runs the device path on the host): its kernel is a
// host function, so the error names the op and what it needs.
// EXPECT: device_code_needs_a_builtin_op_or_op_traits_decomposition_for.*cumsum_op
// ERRORS: 1
#define CALX_DEVICE_ON_HOST 1
#include <calx/calx.hpp>

#include <vector>

struct cumsum_op {};
inline constexpr calx::tensor_op_fn<cumsum_op> cumsum{};
template <>
struct calx::op_traits<cumsum_op> {
  static constexpr const char* name = "cumsum";
  static constexpr int arity = 1;
  static constexpr std::optional<calx::shape> result_shape(calx::shape x) { return x; }
  template <class T, std::size_t N>
  static constexpr calx::tensor<T, N> kernel(const calx::tensor<T, N>& x) {
    calx::tensor<T, N> y;
    T acc = 0;
    for (std::size_t i = 0; i < N; ++i) y[i] = acc += x[i];
    return y;
  }
};

int main() {
  using V = calx::tensor<double, 4>;
  const calx::device_vector<V> xs{std::vector<V>(8)};
  calx::device_vector<V> ys(8);
  calx::device_span<V> out(ys);
  calx::vmap([](const auto& x) { return cumsum(x); }).into(out)(calx::device_span<const V>(xs));
}
