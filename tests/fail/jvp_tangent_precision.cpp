// calx::jvp with float tangents for double primals.
// EXPECT: calx::jvp: the tangents must have the same structure and precision as the primals
// ERRORS: 1
#include <calx/calx.hpp>

#include <tuple>

int main() {
  auto f = [](auto x) { return x * x; };
  auto r = calx::jvp(f, std::tuple{1.0}, std::tuple{1.0f});
  (void)r;
}
