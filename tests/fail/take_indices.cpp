// calx::take with indices that are not integers (a mask): one message, which says what indices may be.
// EXPECT: calx: indices must be integers
// ERRORS: 1
#include <calx/calx.hpp>

int main() {
  const calx::tensor<double, 4, 3> x{};
  const calx::tensor<bool, 2> mask{};
  auto y = calx::take(x, mask);
  (void)y;
}
