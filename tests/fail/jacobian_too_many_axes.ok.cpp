// The fix: the argument as a vector (a Hessian of 2 axes), reshaped inside the function.
#include <calx/calx.hpp>

#include <type_traits>

int main() {
  constexpr auto f = [](const auto& v) {
    const auto x = calx::reshape<2, 3, 2>(v);
    return calx::sum(x * x);
  };
  auto h = calx::hessian(f)(calx::tensor<double, 12>{});
  static_assert(std::is_same_v<decltype(h), calx::tensor<double, 12, 12>>);
  (void)h;
}
