// calx::vmap with in_axes<0> (every argument batched, as JAX's in_axes=0) where the first
// argument is one tensor, not a batch of them: the structure does not match in_axes.
// EXPECT: calx::vmap: an argument with in_axes 0 must be a batch
// ERRORS: 1
#include <calx/calx.hpp>

#include <vector>

int main() {
  constexpr auto f = [](const auto& w, const auto& x) { return calx::dot(w, x); };
  const std::vector<calx::tensor<double, 3>> xs(4);
  auto r = calx::vmap(f, calx::in_axes<0>)(calx::tensor<double, 3>{}, xs);
  (void)r;
}
