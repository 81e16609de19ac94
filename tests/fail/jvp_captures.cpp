// calx::jvp of a lambda with captures.
// EXPECT: calx::jvp: the function captures state
// ERRORS: 1
#include <calx/calx.hpp>

#include <tuple>

int main() {
  double k = 3.0;
  auto f = [k](auto x) { return k * x; };
  auto r = calx::jvp(f, std::tuple{1.0}, std::tuple{1.0});
  (void)r;
}
