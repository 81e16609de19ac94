// The fix: map jacfwd over the samples.
#include <calx/calx.hpp>

#include <tuple>
#include <vector>

int main() {
  constexpr auto f = [](auto x) { return std::tuple{x * x, x + x}; };
  const std::vector<double> xs{1.0, 2.0};
  auto j = calx::vmap(calx::jacfwd(f))(xs);
  (void)j;
}
