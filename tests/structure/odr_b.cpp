#include "odr_function.hpp"

namespace odr_test {
double eval_b(double x, double y) { return program{}(x, y); }
std::string text_b() { return calx::to_string(calx::trace(function{}, 1.0, 1.0)); }
}  // namespace odr_test
