// The fix: a tangent for every primal (0 for the ones that do not move).
#include <calx/calx.hpp>

#include <tuple>

int main() {
  auto f = [](auto x, auto y) { return x * y; };
  auto r = calx::jvp(f, std::tuple{1.0, 2.0}, std::tuple{1.0, 0.0});
  (void)r;
}
