// calx::vjp with calx::has_aux and a function that returns a scalar.
// EXPECT: calx::vjp: with calx::has_aux the function must return std::pair
// ERRORS: 1
#include <calx/calx.hpp>

int main() {
  auto f = [](auto x) { return x * x; };
  auto r = calx::vjp(f, calx::has_aux, 1.0);
  (void)r;
}
