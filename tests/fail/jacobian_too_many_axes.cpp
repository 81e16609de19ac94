// The Hessian of a function of a rank-3 tensor has 6 axes (JAX: shape (2, 3, 2, 2, 3, 2));
// calx::tensor has at most 4. One message, naming the transform and the fix.
// EXPECT: calx::jacfwd: the result would have more than 4 axes
// ERRORS: 1
#include <calx/calx.hpp>

int main() {
  constexpr auto f = [](const auto& x) { return calx::sum(x * x); };
  auto h = calx::hessian(f)(calx::tensor<double, 2, 3, 2>{});
  (void)h;
}
