// calx::segment_sum with one id too few: one message, which names the data and the ids.
// EXPECT: calx::segment_sum: the segment ids must be a vector with one id per entry
// ERRORS: 1
#include <calx/calx.hpp>

int main() {
  const calx::tensor<double, 4, 3> x{};
  const calx::tensor<int, 3> ids{};
  auto y = calx::segment_sum<2>(x, ids);
  (void)y;
}
