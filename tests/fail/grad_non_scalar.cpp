// calx::grad of a function with several outputs: grad needs one scalar output; the
// message points to the transforms for several outputs.
// EXPECT: calx::grad: the function must return one scalar
// EXPECT: calx::jacrev, calx::jacfwd or calx::vjp
// ERRORS: 1
#include <calx/calx.hpp>

#include <tuple>

int main() {
  auto f = [](auto x) { return std::tuple{x * x, x + 1.0}; };
  auto g = calx::grad(f)(2.0);
  (void)g;
}
