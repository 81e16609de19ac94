// calx::grad of a function that returns one value per sample of a runtime batch: that is
// not a scalar. Reduce it over the batch, or take per-sample gradients with vmap.
// EXPECT: calx::grad: the function returns one value per sample of a batch, not a scalar. Reduce it with calx::sum
// ERRORS: 1
#include <calx/calx.hpp>

#include <vector>

int main() {
  constexpr auto loss = [](auto xs) { return xs * xs; };
  const std::vector<double> xs{1.0, 2.0};
  auto g = calx::grad(loss)(xs);
  (void)g;
}
