// A backward that returns one cotangent for a function of two arguments.
// EXPECT: calx::custom_vjp: the backward closure must return a std::tuple with one cotangent per argument
// ERRORS: 1
#include <calx/calx.hpp>

#include <tuple>
#include <utility>

constexpr auto my_mul = calx::custom_vjp([](auto x, auto y) {
  return std::pair{x * y, [=](auto g) { return std::tuple{g * y}; }};
});

int main() {
  double g = calx::grad(my_mul)(2.0, 3.0);
  (void)g;
}
