// The twin of segment_ids_shape.cpp: one id per entry of the data's first axis.
#include <calx/calx.hpp>

int main() {
  const calx::tensor<double, 4, 3> x{};
  const calx::tensor<int, 4> ids{};
  auto y = calx::segment_sum<2>(x, ids);
  (void)y;
}
