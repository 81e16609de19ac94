// A matrix times a vector of the wrong length: one message, naming both shapes.
// EXPECT: calx: these tensor shapes cannot be contracted
// EXPECT: shapes_contract.*tensor<double, 2, 3>.*tensor<double, 4>
// ERRORS: 1
#include <calx/calx.hpp>

int main() {
  constexpr auto f = [](const auto& a, const auto& x) { return calx::sum(calx::matvec(a, x)); };
  auto g = calx::grad(f)(calx::tensor<double, 2, 3>{}, calx::tensor<double, 4>{});
  (void)g;
}
