// calx::dynamic_slice longer than its axis: one message, which names the tensor, the axis and the size.
// EXPECT: calx::dynamic_slice: the size must be at least 1 and at most the axis's extent
// ERRORS: 1
#include <calx/calx.hpp>

int main() {
  const calx::tensor<double, 4, 3> x{};
  auto y = calx::dynamic_slice<4>(x, 1, calx::axis<1>);
  (void)y;
}
