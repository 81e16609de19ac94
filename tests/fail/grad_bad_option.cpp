// An option that is neither calx::argnums<...> nor calx::has_aux (here a plain index, as
// JAX spells argnums=1).
// EXPECT: calx::grad: unknown option
// ERRORS: 1
#include <calx/calx.hpp>

int main() {
  auto f = [](auto x, auto y) { return x * y; };
  auto g = calx::grad(f, 1)(1.0, 2.0);
  (void)g;
}
