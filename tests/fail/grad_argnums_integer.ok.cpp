// An integer argument that is not differentiated is accepted (like JAX's static arguments).
#include <calx/calx.hpp>

int main() {
  auto f = [](auto x, auto n) { return x * x * n; };
  double g = calx::grad(f, calx::argnums<0>)(1.5, 3);
  (void)g;
}
