// A pullback called with a cotangent whose structure is not the output's (a tuple for a
// scalar function).
// EXPECT: calx::vjp: the pullback takes one cotangent with the structure and precision of the function's output
// ERRORS: 1
#include <calx/calx.hpp>

#include <tuple>

int main() {
  auto f = [](auto x, auto y) { return x * y; };
  auto [v, pb] = calx::vjp(f, 1.0, 2.0);
  auto ct = pb(std::tuple{1.0, 1.0});
  (void)v;
  (void)ct;
}
