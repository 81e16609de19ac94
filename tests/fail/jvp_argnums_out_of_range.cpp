// calx::argnums<2> for a jvp of a function of two arguments.
// EXPECT: calx::jvp: an index in calx::argnums is out of range
// ERRORS: 1
#include <calx/calx.hpp>

#include <tuple>

int main() {
  auto f = [](auto x, auto y) { return x * y; };
  auto r = calx::jvp(f, std::tuple{1.0, 2.0}, std::tuple{1.0}, calx::argnums<2>);
  (void)r;
}
