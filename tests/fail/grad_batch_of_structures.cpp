// A runtime batch of integer samples to grad: samples are numbers or structures of
// numbers; integers are passed once, not per sample.
// EXPECT: calx: a runtime batch \(std::vector or std::span\) whose samples calx cannot trace
// ERRORS: 1
#include <calx/calx.hpp>

#include <array>
#include <vector>

int main() {
  const std::vector<std::array<int, 2>> cells(4);
  const double g = calx::grad([](const auto& c, auto w) { return calx::sum(c[0] * w); }, calx::argnums<1>)(cells, 1.0);
  (void)g;
}
