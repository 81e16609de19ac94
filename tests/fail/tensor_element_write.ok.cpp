// The fix: a new tensor (here the sum of its elements plus the change), not a write.
#include <calx/calx.hpp>

int main() {
  const calx::tensor<double, 3> x{};
  const auto g = calx::grad([](auto t) { return calx::sum(t * t) + 2.0 * t(0) + 1.0; })(x);
  (void)g;
}
