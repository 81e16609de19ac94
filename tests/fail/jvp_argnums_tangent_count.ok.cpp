// The fix: one tangent per argument calx::argnums names.
#include <calx/calx.hpp>

#include <tuple>

int main() {
  auto f = [](auto x, auto y) { return x * y; };
  auto r = calx::jvp(f, std::tuple{1.0, 2.0}, std::tuple{1.0}, calx::argnums<0>);
  (void)r;
}
