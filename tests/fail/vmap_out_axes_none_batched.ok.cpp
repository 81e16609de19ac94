// The fix: none only for the output that does not depend on the batch.
#include <calx/calx.hpp>

#include <tuple>
#include <vector>

int main() {
  constexpr auto f = [](auto x, auto w) { return std::tuple{w * w, x * w}; };
  const std::vector<double> xs{1.0, 2.0};
  auto r = calx::vmap(f, calx::in_axes<0, calx::none>, calx::out_axes<calx::none, 0>)(xs, 2.0);
  (void)r;
}
