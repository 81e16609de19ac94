// The fix: name an argument that exists (the batch itself: its gradient is a column).
#include <calx/calx.hpp>

#include <vector>

constexpr auto loss = [](auto w, auto xs) { return calx::mean(xs * w); };

int main() {
  const std::vector<double> xs{0.5, 1.0, 2.0};
  auto p = calx::trace(calx::grad(loss, calx::argnums<1>), 0.3, xs);
  (void)p;
}
