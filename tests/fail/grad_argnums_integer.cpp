// An integer argument named in argnums: integers are passed through, never differentiated.
// EXPECT: calx::grad: calx::argnums names an argument with integer values
// ERRORS: 1
#include <calx/calx.hpp>

int main() {
  auto f = [](auto x, auto n) { return x * x * n; };
  double g = calx::grad(f, calx::argnums<1>)(1.5, 3);
  (void)g;
}
