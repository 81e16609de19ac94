// The fix: operands whose trailing axes line up (or are 1) broadcast.
#include <calx/calx.hpp>

#include <type_traits>

int main() {
  constexpr auto f = [](const auto& a, const auto& b) { return calx::sum(a + b); };
  auto g = calx::grad(f)(calx::tensor<double, 3>{}, calx::tensor<double, 4, 3>{});
  static_assert(std::is_same_v<decltype(g), calx::tensor<double, 3>>);
  (void)g;
}
