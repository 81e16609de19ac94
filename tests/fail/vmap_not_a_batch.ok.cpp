// The fix: broadcast the number with calx::none.
#include <calx/calx.hpp>

#include <vector>

int main() {
  constexpr auto f = [](auto x, auto w) { return x * w; };
  const std::vector<double> xs{1.0, 2.0};
  auto r = calx::vmap(f, calx::in_axes<0, calx::none>)(xs, 2.0);
  (void)r;
}
