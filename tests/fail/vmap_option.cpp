// calx::vmap with an option that is not in_axes or out_axes.
// EXPECT: calx::vmap: unknown option; the options are calx::in_axes<...> and calx::out_axes<...>
// ERRORS: 1
#include <calx/calx.hpp>

#include <vector>

int main() {
  constexpr auto f = [](auto x) { return x * x; };
  const std::vector<double> xs{1.0, 2.0};
  auto r = calx::vmap(f, calx::argnums<0>)(xs);
  (void)r;
}
