// The fix: the captured value as an argument, with a zero tangent.
#include <calx/calx.hpp>

#include <tuple>

int main() {
  double k = 3.0;
  auto f = [](auto x, auto kk) { return kk * x; };
  auto r = calx::jvp(f, std::tuple{1.0, k}, std::tuple{1.0, 0.0});
  (void)r;
}
