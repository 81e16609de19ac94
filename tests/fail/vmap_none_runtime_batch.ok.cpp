// The fix: batch both (in_axes 0), or broadcast a number.
#include <calx/calx.hpp>

#include <vector>

int main() {
  constexpr auto f = [](auto x, auto w) { return x * w; };
  const std::vector<double> xs{1.0, 2.0}, ws{3.0, 4.0};
  auto r = calx::vmap(f)(xs, ws);
  auto s = calx::vmap(f, calx::in_axes<0, calx::none>)(xs, 3.0);
  (void)r;
  (void)s;
}
