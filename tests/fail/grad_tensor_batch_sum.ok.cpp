// The fix: the per-sample sums through calx::vmap, then their sum over the batch.
#include <calx/calx.hpp>

#include <vector>

int main() {
  const std::vector<calx::tensor<double, 3>> points(4);
  const double g = calx::grad(
      [](const auto& ps, auto w) { return calx::sum(calx::vmap([](const auto& p) { return calx::sum(p); })(ps)) * w; },
      calx::argnums<1>)(points, 1.0);
  (void)g;
}
