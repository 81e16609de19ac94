// The fix: t(i) is the element as a traced value.
#include <calx/calx.hpp>

int main() {
  calx::tensor<double, 3> x{};
  const auto g = calx::grad([](const auto& t) { return calx::sum(t * t) * t(0); })(x);
  (void)g;
}
