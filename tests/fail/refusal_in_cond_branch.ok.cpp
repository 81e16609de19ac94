// The fix: read the element with u(1).
#include <calx/calx.hpp>

int main() {
  const calx::tensor<double, 2> x = calx::tensor<double, 2>{} + 1.5;
  const auto j = calx::jacrev([](const auto& t) {
    return calx::cond(
        calx::sum(t) > 0.0, [](const auto& u) { return u * u(1); }, [](const auto& u) { return u; }, t);
  })(x);
  (void)j;
}
