// The fix: read the element with c(1).
#include <calx/calx.hpp>

int main() {
  const calx::tensor<double, 2> x = calx::tensor<double, 2>{} + 1.5;
  const auto g = calx::grad([](const auto& t) {
    const auto end = calx::fori_loop(0, 3, [](auto, const auto& c) { return c * c(1); }, t);
    return calx::sum(end);
  })(x);
  (void)g;
}
