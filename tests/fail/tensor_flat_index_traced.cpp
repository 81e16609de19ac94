// t[k] reads a tensor's numbers; a traced tensor has none.
// EXPECT: calx: t\[k\] on a traced tensor, which has no numbers: read elements with t\(i, \.\.\.\)
// ERRORS: 1
#include <calx/calx.hpp>

int main() {
  calx::tensor<double, 3> x{};
  const auto g = calx::grad([](const auto& t) { return calx::sum(t * t) * t[0]; })(x);
  (void)g;
}
