// The fix: one cotangent per argument.
#include <calx/calx.hpp>

#include <tuple>
#include <utility>

constexpr auto my_mul = calx::custom_vjp([](auto x, auto y) {
  return std::pair{x * y, [=](auto g) { return std::tuple{g * y, g * x}; }};
});

int main() {
  double g = calx::grad(my_mul)(2.0, 3.0);
  (void)g;
}
