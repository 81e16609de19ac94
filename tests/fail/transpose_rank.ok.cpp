// The fix: a matrix (here the rank-3 tensor reshaped to one).
#include <calx/calx.hpp>

int main() {
  const calx::tensor<double, 2, 3, 4> x{};
  const auto t = calx::transpose(calx::reshape<6, 4>(x));
  (void)t;
}
