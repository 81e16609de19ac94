// The function both ODR translation units trace: one type, so both instantiate the same
// calx::program and the same generated code.
#ifndef CALX_TESTS_STRUCTURE_ODR_FUNCTION_HPP
#define CALX_TESTS_STRUCTURE_ODR_FUNCTION_HPP

#include <calx_all_public_headers.hpp>

#include <string>

namespace odr_test {

struct function {
  template <class X, class Y>
  constexpr auto operator()(const X& x, const Y& y) const {
    auto r = calx::sin(x) * y + calx::exp(-x * x);
    return calx::where(x > y, r, calx::sqrt(y * y + 1.0) - x);
  }
};

using program = decltype(calx::trace(function{}, 1.0, 1.0));

// Defined once in odr_a.cpp and once in odr_b.cpp.
double eval_a(double x, double y);
double eval_b(double x, double y);
std::string text_a();
std::string text_b();

}  // namespace odr_test

#endif
