// `t += b` with b of a larger shape than t: t keeps its type, so b must broadcast to t's
// own shape. One message, naming both shapes.
// EXPECT: calx: t op= b needs b to broadcast to t's own shape
// EXPECT: compound_changes_shape.*tensor<double, 3>.*tensor<double, 2, 3>
// ERRORS: 1
#include <calx/calx.hpp>

int main() {
  constexpr auto f = [](const auto& v, const auto& m) {
    auto t = v;
    t += m;  // [3] += [2, 3]: the sum is [2, 3]
    return calx::sum(t);
  };
  auto g = calx::grad(f)(calx::tensor<double, 3>{}, calx::tensor<double, 2, 3>{});
  (void)g;
}
