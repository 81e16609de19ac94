// A per-sample value that depends on a sum over its own batch (x - mean(x)) needs two
// passes over the batch, which calx does not do yet.
// EXPECT: a per-sample value depends on a sum over the same batch
// ERRORS: 1
#include <calx/calx.hpp>

#include <vector>

int main() {
  constexpr auto loss = [](auto xs) {
    const auto centred = xs - calx::mean(xs);
    return calx::sum(centred * centred);
  };
  const std::vector<double> xs{1.0, 2.0, 4.0};
  auto g = calx::grad(loss)(xs);
  (void)g;
}
