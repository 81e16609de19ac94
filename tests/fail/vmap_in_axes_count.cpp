// calx::vmap with more in_axes entries than arguments.
// EXPECT: calx::vmap: calx::in_axes takes one entry per argument
// ERRORS: 1
#include <calx/calx.hpp>

#include <vector>

int main() {
  constexpr auto f = [](auto x, auto w) { return x * w; };
  const std::vector<double> xs{1.0, 2.0};
  auto r = calx::vmap(f, calx::in_axes<0, calx::none, 0>)(xs, 2.0);
  (void)r;
}
