// The fix: a matrix has axes 0 and 1.
#include <calx/calx.hpp>

#include <type_traits>

int main() {
  constexpr auto f = [](const auto& a) { return calx::sum(calx::sum(a, calx::axis<1>)); };
  auto g = calx::grad(f)(calx::tensor<double, 2, 3>{});
  static_assert(std::is_same_v<decltype(g), calx::tensor<double, 2, 3>>);
  (void)g;
}
