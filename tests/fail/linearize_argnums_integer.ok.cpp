// The fix: the integer stays data; the map takes the real argument's tangent.
#include <calx/calx.hpp>

int main() {
  auto f = [](auto x, auto n) { return x * n; };
  auto r = calx::linearize(f, calx::argnums<0>, 1.5, 3);
  (void)r;
}
