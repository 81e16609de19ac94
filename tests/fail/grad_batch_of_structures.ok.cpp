// The fix: one batch of numbers per component.
#include <calx/calx.hpp>

#include <vector>

int main() {
  const std::vector<double> x0(4), x1(4), x2(4);
  const double g = calx::grad([](const auto& a, const auto& b, const auto& c, auto w) { return calx::sum(a + b + c) * w; },
                              calx::argnums<3>)(x0, x1, x2, 1.0);
  (void)g;
}
