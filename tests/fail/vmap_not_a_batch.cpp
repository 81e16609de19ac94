// calx::vmap with in_axes 0 (the default) on a number: a batched argument must be a
// batch of samples.
// EXPECT: calx::vmap: an argument with in_axes 0 must be a batch: a std::vector, std::span,
// ERRORS: 1
#include <calx/calx.hpp>

#include <vector>

int main() {
  constexpr auto f = [](auto x, auto w) { return x * w; };
  const std::vector<double> xs{1.0, 2.0};
  auto r = calx::vmap(f)(xs, 2.0);
  (void)r;
}
