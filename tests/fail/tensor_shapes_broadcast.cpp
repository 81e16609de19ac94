// Adding tensors whose shapes do not broadcast (NumPy's rule): one message, naming both
// shapes (they are the template arguments of calx::detail::shapes_broadcast).
// EXPECT: calx: these tensor shapes do not broadcast
// EXPECT: shapes_broadcast.*tensor<double, 3>.*tensor<double, 4>
// ERRORS: 1
#include <calx/calx.hpp>

int main() {
  constexpr auto f = [](const auto& a, const auto& b) { return calx::sum(a + b); };
  auto g = calx::grad(f)(calx::tensor<double, 3>{}, calx::tensor<double, 4>{});
  (void)g;
}
