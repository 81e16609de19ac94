// The fix: the integer stays data; the tangent is the real argument's.
#include <calx/calx.hpp>

#include <tuple>

int main() {
  auto f = [](auto x, auto n) { return x * n; };
  auto r = calx::jvp(f, std::tuple{1.5, 3}, std::tuple{1.0}, calx::argnums<0>);
  (void)r;
}
