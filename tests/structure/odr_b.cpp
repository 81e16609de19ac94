#include "odr_function.hpp"

namespace odr_test {
double eval_b(double x, double y) { return program{}(x, y); }
std::string text_b() { return calx::to_string(calx::trace(function{}, 1.0, 1.0)); }
double user_grad_b(double x, double y) {
  const auto [gx, gy] = user_gradient{}(x, y);
  return gx + gy;
}
}  // namespace odr_test
