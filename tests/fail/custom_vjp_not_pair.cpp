// A forward that returns only its result: custom_vjp needs the backward closure beside it.
// EXPECT: calx::custom_vjp: the forward function must return std::pair\{result, backward\}
// ERRORS: 1
#include <calx/calx.hpp>

constexpr auto twice = calx::custom_vjp([](auto x) { return 2.0 * x; });

int main() {
  double g = calx::grad(twice)(2.0);
  (void)g;
}
