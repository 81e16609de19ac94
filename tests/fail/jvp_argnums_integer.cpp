// calx::argnums naming an integer primal of a jvp.
// EXPECT: calx::jvp: calx::argnums names an argument with integer values
// ERRORS: 1
#include <calx/calx.hpp>

#include <tuple>

int main() {
  auto f = [](auto x, auto n) { return x * n; };
  auto r = calx::jvp(f, std::tuple{1.5, 3}, std::tuple{1}, calx::argnums<1>);
  (void)r;
}
