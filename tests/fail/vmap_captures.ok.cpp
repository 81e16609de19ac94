// The fix: pass the captured value as a broadcast argument.
#include <calx/calx.hpp>

#include <vector>

int main() {
  double w = 2.0;
  auto f = [](auto x, auto k) { return x * k; };
  const std::vector<double> xs{1.0, 2.0};
  auto r = calx::vmap(f, calx::in_axes<0, calx::none>)(xs, w);
  (void)r;
}
