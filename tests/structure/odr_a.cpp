#include "odr_function.hpp"

namespace odr_test {
double eval_a(double x, double y) { return calx::trace(function{}, 1.0, 1.0)(x, y); }
std::string text_a() { return calx::to_string(program{}); }
double user_grad_a(double x, double y) {
  const auto [gx, gy] = user_gradient{}(x, y);
  return gx + gy;
}
}  // namespace odr_test
