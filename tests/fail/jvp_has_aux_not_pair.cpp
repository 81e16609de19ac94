// calx::jvp with calx::has_aux and a function that returns a scalar.
// EXPECT: calx::jvp: with calx::has_aux the function must return std::pair
// ERRORS: 1
#include <calx/calx.hpp>

#include <tuple>

int main() {
  auto f = [](auto x) { return x * x; };
  auto r = calx::jvp(f, std::tuple{1.0}, std::tuple{1.0}, calx::has_aux);
  (void)r;
}
