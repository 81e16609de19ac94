// calx::vmap with an in_axes entry other than 0 or calx::none: other axes need tensor
// values (calx's values are scalars), so in_axes<1> is refused at compile time.
// EXPECT: calx::vmap: calx::in_axes takes one entry per argument \(or one for all\), each 0
// ERRORS: 1
#include <calx/calx.hpp>

#include <vector>

int main() {
  constexpr auto f = [](auto x) { return x * x; };
  const std::vector<double> xs{1.0, 2.0};
  auto r = calx::vmap(f, calx::in_axes<1>)(xs);
  (void)r;
}
