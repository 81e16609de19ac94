// jvp differentiates every primal, and integers are never differentiated.
// EXPECT: calx::jvp: a primal has integer values
// ERRORS: 1
#include <calx/calx.hpp>

#include <tuple>

int main() {
  auto f = [](auto x, auto n) { return x * n; };
  auto [y, t] = calx::jvp(f, std::tuple{1.5, 3}, std::tuple{1.0, 0});
  (void)y;
  (void)t;
}
