// calx::custom_vjp called on a tensor: not supported yet (the rule would be ignored, so it
// must not compile); one message, which names the fixes.
// EXPECT: calx::custom_vjp: tensor arguments are not supported yet
// ERRORS: 1
#include <calx/calx.hpp>

#include <tuple>
#include <utility>

constexpr auto clip = calx::custom_vjp([](const auto& x) {
  return std::pair{x, [](const auto& g) { return std::tuple{calx::max(calx::min(g, 1.0), -1.0)}; }};
});

int main() {
  auto g = calx::grad([](const auto& v) { return calx::sum(clip(v * v)); })(calx::tensor<double, 3>{});
  (void)g;
}
