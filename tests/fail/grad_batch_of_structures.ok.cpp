// The fix: samples of reals (the integers converted to the batch's precision).
#include <calx/calx.hpp>

#include <array>
#include <vector>

int main() {
  const std::vector<std::array<double, 2>> cells(4);
  const double g = calx::grad([](const auto& c, auto w) { return calx::sum(c[0] * w); }, calx::argnums<1>)(cells, 1.0);
  (void)g;
}
