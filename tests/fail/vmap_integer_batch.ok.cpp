// An integer with calx::none: the same value for every sample.
#include <calx/calx.hpp>

#include <vector>

int main() {
  auto f = [](auto x, auto n) { return x * n; };
  const std::vector<double> xs{1.0, 2.0};
  auto r = calx::vmap(f, calx::in_axes<0, calx::none>)(xs, 3);
  (void)r;
}
