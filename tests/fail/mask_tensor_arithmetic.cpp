// Arithmetic on a tensor of masks (what comparing tensors gives), in place of a selection.
// EXPECT: a mask \(what a comparison gives\) is used as a number
// ERRORS: 1
#include <calx/calx.hpp>

int main() {
  auto f = [](const auto& t) { return calx::sum((t > 0.0) * t); };
  auto p = calx::trace(f, calx::tensor<double, 3>{});
  (void)p;
}
