// Inside a traced function, vmap over a runtime batch with out_axes calx::none for an
// output that depends on the batch.
// EXPECT: calx::vmap: out_axes is calx::none for an output that depends on the batch
// ERRORS: 1
#include <calx/calx.hpp>

#include <vector>

int main() {
  constexpr auto loss = [](auto xs, auto w) {
    return calx::sum(calx::vmap([](auto x, auto k) { return x * k; }, calx::in_axes<0, calx::none>,
                                calx::out_axes<calx::none>)(xs, w));
  };
  const std::vector<double> xs{1.0, 2.0};
  auto g = calx::grad(loss)(xs, 2.0);
  (void)g;
}
