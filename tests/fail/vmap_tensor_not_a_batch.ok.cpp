// The fix: one in_axes entry per argument, calx::none for the broadcast tensor.
#include <calx/calx.hpp>

#include <vector>

int main() {
  constexpr auto f = [](const auto& w, const auto& x) { return calx::dot(w, x); };
  const std::vector<calx::tensor<double, 3>> xs(4);
  auto r = calx::vmap(f, calx::in_axes<calx::none, 0>)(calx::tensor<double, 3>{}, xs);
  (void)r;
}
