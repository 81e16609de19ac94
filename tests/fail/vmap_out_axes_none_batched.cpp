// calx::vmap with out_axes calx::none for an output that depends on a batched argument:
// it has one value per sample, so it cannot be returned once (JAX: "got axis spec None but
// output was batched").
// EXPECT: calx::vmap: out_axes is calx::none for an output that depends on a batched argument
// ERRORS: 1
#include <calx/calx.hpp>

#include <tuple>
#include <vector>

int main() {
  constexpr auto f = [](auto x, auto w) { return std::tuple{w * w, x * w}; };
  const std::vector<double> xs{1.0, 2.0};
  auto r = calx::vmap(f, calx::in_axes<0, calx::none>, calx::out_axes<calx::none>)(xs, 2.0);
  (void)r;
}
