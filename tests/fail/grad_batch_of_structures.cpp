// A runtime batch of tensors to grad: grad takes batches of numbers.
// EXPECT: calx: a runtime batch \(std::vector or std::span\) whose samples are not float or double
// ERRORS: 1
#include <calx/calx.hpp>

#include <vector>

int main() {
  const std::vector<calx::tensor<double, 3>> points(4);
  const double g = calx::grad([](const auto& xs, auto w) { return calx::sum(xs) * w; }, calx::argnums<1>)(points, 1.0);
  (void)g;
}
