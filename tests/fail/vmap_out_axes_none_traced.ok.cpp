// The fix: out_axes 0 for the per-sample output.
#include <calx/calx.hpp>

#include <vector>

int main() {
  constexpr auto loss = [](auto xs, auto w) {
    return calx::sum(calx::vmap([](auto x, auto k) { return x * k; }, calx::in_axes<0, calx::none>,
                                calx::out_axes<0>)(xs, w));
  };
  const std::vector<double> xs{1.0, 2.0};
  auto g = calx::grad(loss)(xs, 2.0);
  (void)g;
}
