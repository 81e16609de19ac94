// The function both ODR translation units trace: one type, so both instantiate the same
// calx::program and the same generated code.
#ifndef CALX_TESTS_STRUCTURE_ODR_FUNCTION_HPP
#define CALX_TESTS_STRUCTURE_ODR_FUNCTION_HPP

#include <calx_all_public_headers.hpp>

#include <cmath>
#include <concepts>
#include <string>

namespace odr_test {

// A user op (its own scalar kernel and vjp, and a decomposition) and a custom_vjp function,
// used by both translation units: each op is one identity however many units name it.
struct scaled_softplus_op {};

}  // namespace odr_test

template <>
struct calx::op_traits<odr_test::scaled_softplus_op> {
  static constexpr const char* name = "scaled_softplus";
  static constexpr int arity = 2;
  template <std::floating_point T>
  static T kernel(T x, T s) {
    return s * std::log1p(std::exp(x));
  }
  static constexpr auto vjp(const auto& ct, const auto&, const auto& x, const auto& s) {
    return std::array{ct * s * calx::sigmoid(x), ct * calx::log1p(calx::exp(x))};
  }
  static constexpr auto decomposition(const auto& x, const auto& s) { return s * calx::log1p(calx::exp(x)); }
};

namespace odr_test {

inline constexpr calx::op_fn<scaled_softplus_op> scaled_softplus{};
inline constexpr auto twice_gradient = calx::custom_vjp([](auto x) {
  return std::pair{x * 1.0, [](auto g) { return std::tuple{2.0 * g}; }};
});

struct user_function {
  template <class X, class Y>
  constexpr auto operator()(const X& x, const Y& y) const {
    return scaled_softplus(twice_gradient(x), y) + x * y;
  }
};
using user_gradient = decltype(calx::grad(user_function{}, calx::argnums<0, 1>));

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
// d/dx and d/dy of user_function: each unit adds them up.
double user_grad_a(double x, double y);
double user_grad_b(double x, double y);
std::string text_a();
std::string text_b();

}  // namespace odr_test

#endif
