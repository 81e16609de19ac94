// The twin of take_indices.cpp: integer indices.
#include <calx/calx.hpp>

int main() {
  const calx::tensor<double, 4, 3> x{};
  const calx::tensor<int, 2> idx{};
  auto y = calx::take(x, idx);
  (void)y;
}
