// calx::jvp with fewer tangents than primals.
// EXPECT: calx::jvp: the tangents must have the same structure and precision as the primals
// ERRORS: 1
#include <calx/calx.hpp>

#include <tuple>

int main() {
  auto f = [](auto x, auto y) { return x * y; };
  auto r = calx::jvp(f, std::tuple{1.0, 2.0}, std::tuple{1.0});
  (void)r;
}
