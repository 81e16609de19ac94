// A misuse calx reports while tracing (t[k] on a traced tensor), the transform's result then
// used as users write it: deduced with auto, braced into a tensor, combined, bound as a
// pair, indexed, returned from a function whose return type is deduced. Exactly one error, calx's.
// EXPECT: calx: t\[k\] on a traced tensor, which has no numbers
// ERRORS: 1
#include <calx/calx.hpp>

using vec = calx::tensor<double, 3>;

constexpr auto weighted = [](const auto& t) { return calx::sum(t * t) * t[0]; };

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
