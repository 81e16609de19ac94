// calx::has_aux with a function that does not return std::pair{value, aux}.
// EXPECT: calx::grad: with calx::has_aux the function must return std::pair
// ERRORS: 1
#include <calx/calx.hpp>

#include <tuple>

int main() {
  auto f = [](auto x) { return std::tuple{x * x, x}; };
  auto g = calx::grad(f, calx::has_aux)(2.0);
  (void)g;
}
