// The fix: vmap's options are in_axes and out_axes.
#include <calx/calx.hpp>

#include <vector>

int main() {
  constexpr auto f = [](auto x) { return x * x; };
  const std::vector<double> xs{1.0, 2.0};
  auto r = calx::vmap(f, calx::in_axes<0>, calx::out_axes<0>)(xs);
  (void)r;
}
