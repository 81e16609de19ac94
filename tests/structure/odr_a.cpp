#include "odr_function.hpp"

namespace odr_test {
double eval_a(double x, double y) { return calx::trace(function{}, 1.0, 1.0)(x, y); }
std::string text_a() { return calx::to_string(program{}); }
}  // namespace odr_test
