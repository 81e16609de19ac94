// The twin of dynamic_slice_size.cpp: a slice that fits the axis.
#include <calx/calx.hpp>

int main() {
  const calx::tensor<double, 4, 3> x{};
  auto y = calx::dynamic_slice<3>(x, 1, calx::axis<1>);
  (void)y;
}
