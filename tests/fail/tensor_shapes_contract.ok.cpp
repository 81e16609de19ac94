// The fix: the vector's length is the matrix's number of columns.
#include <calx/calx.hpp>

#include <type_traits>

int main() {
  constexpr auto f = [](const auto& a, const auto& x) { return calx::sum(calx::matvec(a, x)); };
  auto g = calx::grad(f)(calx::tensor<double, 2, 3>{}, calx::tensor<double, 3>{});
  static_assert(std::is_same_v<decltype(g), calx::tensor<double, 2, 3>>);
  (void)g;
}
