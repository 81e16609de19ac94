// A runtime batch (std::vector) given in_axes calx::none: a broadcast argument is the same
// value for every sample, a number or a std::array/std::tuple/std::pair of numbers, so a
// std::vector there must be refused.
// EXPECT: (calx::vmap: .*(none|broadcast))|(unsupported argument type)
// ERRORS: 1
#include <calx/calx.hpp>

#include <vector>

int main() {
  constexpr auto f = [](auto x, auto w) { return x * w; };
  const std::vector<double> xs{1.0, 2.0}, ws{3.0, 4.0};
  auto r = calx::vmap(f, calx::in_axes<0, calx::none>)(xs, ws);
  (void)r;
}
