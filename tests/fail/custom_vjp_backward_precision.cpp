// A backward that returns a float constant as a cotangent: numbers in a rule become
// constants of the program's precision, so a float literal would lose digits in a double
// program (an int, or a mask, is no cotangent at all).
// EXPECT: calx::custom_vjp: a cotangent the backward returns has the wrong structure or precision
// ERRORS: 1
#include <calx/calx.hpp>

#include <tuple>
#include <utility>

constexpr auto first = calx::custom_vjp([](auto x, auto y) {
  return std::pair{x + y * 0.0, [](auto g) { return std::tuple{g, 0.0f}; }};
});

int main() {
  double g = calx::grad(first)(2.0, 3.0);
  (void)g;
}
