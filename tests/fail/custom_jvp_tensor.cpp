// calx::custom_jvp called on a tensor: not supported yet; one message, which names the fixes.
// EXPECT: calx::custom_jvp: tensor arguments are not supported yet
// ERRORS: 1
#include <calx/calx.hpp>

#include <tuple>
#include <utility>

constexpr auto twice = calx::custom_jvp([](const auto& x) {
  return std::pair{x * 2.0, [](const auto& t) { return t * 2.0; }};
});

int main() {
  auto g = calx::grad([](const auto& v) { return calx::sum(twice(v)); })(calx::tensor<double, 3>{});
  (void)g;
}
