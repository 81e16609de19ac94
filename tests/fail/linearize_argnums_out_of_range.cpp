// calx::argnums<-3> for a linearize of a function of two arguments.
// EXPECT: calx::linearize: an index in calx::argnums is out of range
// ERRORS: 1
#include <calx/calx.hpp>

int main() {
  auto f = [](auto x, auto y) { return x * y; };
  auto r = calx::linearize(f, calx::argnums<-3>, 1.0, 2.0);
  (void)r;
}
