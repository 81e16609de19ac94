// The fix: trace the transform itself (or apply it to the numbers, outside any trace).
#include <calx/calx.hpp>

#include <vector>

constexpr auto loss = [](auto w, auto xs) { return calx::mean(xs * w); };

int main() {
  const std::vector<double> xs{0.5, 1.0, 2.0};
  const auto p = calx::trace(calx::grad(loss), 0.3, xs);
  const double g = 2.0 * calx::grad(loss)(0.3, xs);
  (void)p;
  (void)g;
}
