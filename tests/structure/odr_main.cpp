// Two translation units (odr_a.cpp, odr_b.cpp) include every public header and instantiate
// the same program; this one includes them too. Linking proves the headers define nothing
// twice; running proves both units compute the same thing.
#include "odr_function.hpp"

#include <cmath>
#include <cstdio>

int main() {
  int failures = 0;
  const double points[][2] = {{0.5, 2.0}, {3.0, 1.0}, {-1.25, 0.75}};
  for (const auto& p : points) {
    double a = odr_test::eval_a(p[0], p[1]);
    double b = odr_test::eval_b(p[0], p[1]);
    double plain = odr_test::function{}(p[0], p[1]);  // untransformed, on doubles
    if (a != b || std::abs(a - plain) > 1e-12 * (1.0 + std::abs(plain))) {
      std::printf("mismatch at (%g, %g): a=%.17g b=%.17g plain=%.17g\n", p[0], p[1], a, b, plain);
      ++failures;
    }
  }
  for (const auto& p : points) {
    // d/dx = 2 y sigmoid(x) + y (the custom rule doubles the cotangent), d/dy = softplus(x) + x.
    const double want = 2 * p[1] / (1 + std::exp(-p[0])) + p[1] + std::log1p(std::exp(p[0])) + p[0];
    const double a = odr_test::user_grad_a(p[0], p[1]), b = odr_test::user_grad_b(p[0], p[1]);
    if (a != b || std::abs(a - want) > 1e-12 * (1.0 + std::abs(want))) {
      std::printf("user op mismatch at (%g, %g): a=%.17g b=%.17g want=%.17g\n", p[0], p[1], a, b, want);
      ++failures;
    }
  }
  if (odr_test::text_a() != odr_test::text_b() || odr_test::text_a().empty()) {
    std::printf("IR text differs between translation units:\n%s\n%s\n", odr_test::text_a().c_str(),
                odr_test::text_b().c_str());
    ++failures;
  }
  std::printf("%s\n", failures == 0 ? "odr: ok" : "odr: FAILED");
  return failures == 0 ? 0 : 1;
}
