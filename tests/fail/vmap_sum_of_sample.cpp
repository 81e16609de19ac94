// calx::sum inside the function vmap maps: the function sees one sample at a time, never
// the batch, so there is nothing to sum over (to sum over the batch, call calx::sum on
// vmap's result inside a traced function, or use grad over the batch).
// EXPECT: calx::sum: the value is not a runtime batch
// ERRORS: 1
#include <calx/calx.hpp>

#include <vector>

int main() {
  constexpr auto f = [](auto x) { return calx::sum(x * x); };
  const std::vector<double> xs{1.0, 2.0};
  auto r = calx::vmap(f)(xs);
  (void)r;
}
