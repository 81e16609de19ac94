// calx::vmap with an out_axes entry other than 0 or calx::none.
// EXPECT: calx::vmap: calx::out_axes takes one entry per element of the returned tuple or pair
// ERRORS: 1
#include <calx/calx.hpp>

#include <vector>

int main() {
  constexpr auto f = [](auto x) { return x * x; };
  const std::vector<double> xs{1.0, 2.0};
  auto r = calx::vmap(f, calx::out_axes<-1>)(xs);
  (void)r;
}
