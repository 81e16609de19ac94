// A reduction over an axis the tensor does not have: one message.
// EXPECT: calx: the axis is out of range for this tensor
// EXPECT: axis_out_of_range.*tensor<double, 2, 3>.*2
// ERRORS: 1
#include <calx/calx.hpp>

int main() {
  constexpr auto f = [](const auto& a) { return calx::sum(calx::sum(a, calx::axis<2>)); };
  auto g = calx::grad(f)(calx::tensor<double, 2, 3>{});
  (void)g;
}
