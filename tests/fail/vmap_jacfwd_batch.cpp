// calx::jacfwd over a runtime batch: per-sample Jacobians are vmap(jacfwd(f)).
// EXPECT: calx::jacfwd: arguments that are runtime batches \(std::vector, std::span\) are supported by grad, value_and_grad and jvp
// EXPECT: calx::vmap\(calx::jacfwd\(f\)\)
// ERRORS: 1
#include <calx/calx.hpp>

#include <tuple>
#include <vector>

int main() {
  constexpr auto f = [](auto x) { return std::tuple{x * x, x + x}; };
  const std::vector<double> xs{1.0, 2.0};
  auto j = calx::jacfwd(f)(xs);
  (void)j;
}
