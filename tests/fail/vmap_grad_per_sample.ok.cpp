// The fixes: reduce with calx::sum, or map grad over the samples.
#include <calx/calx.hpp>

#include <vector>

int main() {
  constexpr auto loss = [](auto xs) { return calx::sum(xs * xs); };
  constexpr auto per_sample = [](auto x) { return x * x; };
  const std::vector<double> xs{1.0, 2.0};
  auto g = calx::grad(loss)(xs);
  auto h = calx::vmap(calx::grad(per_sample))(xs);
  (void)g;
  (void)h;
}
