// The fix: apply the transform to the numbers, outside any trace; or trace the loss itself.
#include <calx/calx.hpp>

#include <vector>

int main() {
  constexpr auto loss = [](auto w, auto xs) { return calx::mean(xs * w); };
  const std::vector<double> xs{0.5, 1.0, 2.0};
  const double g = calx::grad(loss)(0.3, xs);
  const auto p = calx::trace(loss, 0.3, xs);
  (void)g;
  (void)p;
}
