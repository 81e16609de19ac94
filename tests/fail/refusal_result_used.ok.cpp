// The fix: read the element with t(i), the results used the same way.
#include <calx/calx.hpp>

using vec = calx::tensor<double, 3>;

constexpr auto weighted = [](const auto& t) { return calx::sum(t * t) * t(0); };

auto slope(const vec& x) { return calx::grad(weighted)(x); }

int main() {
  const vec x = vec{} + 2.0;
  const auto g = calx::grad(weighted)(x);
  const vec braced{calx::grad(weighted)(x)};
  const vec sum = g * 2.0 + braced - slope(x);
  const auto [v, d] = calx::value_and_grad(weighted)(x);
  const vec total = sum + d;
  return static_cast<int>(total(0) + v);
}
