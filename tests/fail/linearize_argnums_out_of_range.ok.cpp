// The fix: -n .. -1 counts from the end (here the first of two, -2).
#include <calx/calx.hpp>

int main() {
  auto f = [](auto x, auto y) { return x * y; };
  auto r = calx::linearize(f, calx::argnums<-2>, 1.0, 2.0);
  (void)r;
}
