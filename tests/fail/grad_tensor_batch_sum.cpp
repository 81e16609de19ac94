// calx::sum of a batch of tensors sums each sample's elements: the result is still one
// value per sample, which grad refuses, saying how to sum over the batch.
// EXPECT: calx::grad: the function returns one value per sample of a batch, not a scalar.*Over a batch of tensors, calx::sum\(t\) sums each sample's elements
// ERRORS: 1
#include <calx/calx.hpp>

#include <vector>

int main() {
  const std::vector<calx::tensor<double, 3>> points(4);
  const double g = calx::grad([](const auto& ps, auto w) { return calx::sum(ps) * w; }, calx::argnums<1>)(points, 1.0);
  (void)g;
}
