// calx::argnums naming an integer argument of linearize.
// EXPECT: calx::linearize: calx::argnums names an argument with integer values
// ERRORS: 1
#include <calx/calx.hpp>

int main() {
  auto f = [](auto x, auto n) { return x * n; };
  auto r = calx::linearize(f, calx::argnums<1>, 1.5, 3);
  (void)r;
}
