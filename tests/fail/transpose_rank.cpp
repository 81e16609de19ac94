// calx::transpose of a rank-3 tensor: only matrices are transposed.
// EXPECT: calx::transpose: the tensor has rank 3 or more
// ERRORS: 1
#include <calx/calx.hpp>

int main() {
  const calx::tensor<double, 2, 3, 4> x{};
  const auto t = calx::transpose(x);
  (void)t;
}
