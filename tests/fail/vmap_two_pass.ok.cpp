// The fix: two passes written out. The mean first (calx::mean of plain numbers), then the
// loss with the centre as a parameter, so no per-sample value depends on a sum over the
// batch.
#include <calx/calx.hpp>

#include <vector>

int main() {
  constexpr auto loss = [](auto xs, auto centre) {
    const auto centred = xs - centre;
    return calx::sum(centred * centred);
  };
  const std::vector<double> xs{1.0, 2.0, 4.0};
  const double centre = calx::mean(xs);
  auto g = calx::grad(loss, calx::argnums<0, 1>)(xs, centre);
  (void)g;
}
