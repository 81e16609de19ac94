// calx::vmap of a lambda with captures: calx traces functions at compile time, so they
// must be stateless.
// EXPECT: calx::vmap: the function captures state
// ERRORS: 1
#include <calx/calx.hpp>

#include <vector>

int main() {
  double w = 2.0;
  auto f = [w](auto x) { return x * w; };
  const std::vector<double> xs{1.0, 2.0};
  auto r = calx::vmap(f)(xs);
  (void)r;
}
