// A jvp closure that is not linear in its tangent (t * t): reverse mode transposes the
// closure, which needs it linear.
// EXPECT: calx::custom_jvp: the jvp closure is not linear in its tangents
// ERRORS: 1
#include <calx/calx.hpp>

#include <utility>

constexpr auto square = calx::custom_jvp([](auto x) {
  return std::pair{x * x, [=](auto t) { return 2.0 * x * t * t; }};
});

int main() {
  double g = calx::grad(square)(2.0);
  (void)g;
}
