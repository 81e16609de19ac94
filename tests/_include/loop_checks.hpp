/// @file tests/_include/loop_checks.hpp
/// @brief What tests/loop_tensors.*.cpp and tests/scan_tensors.*.cpp share: their inputs (a
/// state of 3, rows of 2 over 4 steps), comparisons within epsilons relative to |want| + 1
/// (derivatives of loops add terms that cancel), and rank-0 tensors read as numbers.
#ifndef CALX_TESTS_LOOP_CHECKS_HPP
#define CALX_TESTS_LOOP_CHECKS_HPP

#include <_include/float_compare.hpp>

#include <calx/calx.hpp>

#include <catch2/catch.hpp>

#include <cmath>
#include <cstddef>
#include <limits>
#include <string>
#include <tuple>
#include <type_traits>

namespace calx_test {

template <class T>
calx::tensor<T, 3> vec() {
  calx::tensor<T, 3> v;
  v[0] = T(0.3);
  v[1] = T(-0.7);
  v[2] = T(1.1);
  return v;
}
template <class T>
calx::tensor<T, 4, 2> inputs() {
  calx::tensor<T, 4, 2> xs;
  for (std::size_t k = 0; k < 8; ++k) xs[k] = T(0.5) * std::sin(T(0.7) * T(k) + T(0.2));
  return xs;
}

/// Second derivatives are checked in f64 only: each is a loop of loops of tensors, whose
/// f32 twin adds compile time and nothing the f32 first derivatives do not check.
template <class T>
inline constexpr bool second_order = std::is_same_v<T, double>;

template <class T>
void check_close(const std::string& what, T got, T want, int k) {
  INFO(what << ": got " << text(got) << ", want " << text(want));
  CHECK(std::isfinite(got));
  CHECK(std::abs(got - want) <= T(k) * std::numeric_limits<T>::epsilon() * (T(1) + std::abs(want)));
}
template <class T, std::size_t... D>
void check_close(const std::string& what, const calx::tensor<T, D...>& got, const calx::tensor<T, D...>& want, int k) {
  for (std::size_t e = 0; e < calx::tensor<T, D...>::size; ++e) check_close(what + "[" + std::to_string(e) + "]", got[e], want[e], k);
}

template <class T>
void check_relative(const std::string& what, T got, T want, T rel) {
  INFO(what << ": got " << text(got) << ", want " << text(want));
  CHECK(std::abs(got - want) <= rel * (T(1) + std::abs(want)));
}

template <class T>
T num(const calx::tensor<T>& t) {
  return static_cast<T>(t);
}
template <class T>
T num(T t) {
  return t;
}

/// JAX's check_grads, orders 1 and 2, of a function `fx` of one double at 0.4, -0.9 and
/// 1.3: jvp and vjp against central differences (step eps^(1/3)), then the hessian, grad of
/// grad and jacfwd of jacfwd against differences of the gradient (step eps^(1/4));
/// relative 1e-6.
template <class F>
void check_grads_1_2(const std::string& what, F fx) {
  using T = double;
  const T eps = std::numeric_limits<T>::epsilon(), rel = 1e-6;
  const T h1 = std::cbrt(eps), h2 = std::sqrt(std::sqrt(eps));
  const auto f = calx::trace(fx, T(0));
  const auto df = calx::trace(calx::grad(fx), T(0));
  for (const T x : {T(0.4), T(-0.9), T(1.3)}) {
    INFO(what << " at " << text(x));
    const T fd1 = (num(f(x + h1)) - num(f(x - h1))) / (2 * h1);
    check_relative("jvp, order 1", num(calx::jvp(fx, std::tuple{x}, std::tuple{T(1)}).second), fd1, rel);
    check_relative("vjp, order 1", num(calx::grad(fx)(x)), fd1, rel);
    const T fd2 = (num(df(x + h2)) - num(df(x - h2))) / (2 * h2);
    check_relative("hessian, order 2", num(calx::hessian(fx)(x)), fd2, rel);
    check_relative("grad of grad, order 2", num(calx::grad(calx::grad(fx))(x)), fd2, rel);
    check_relative("jacfwd of jacfwd, order 2", num(calx::jacfwd(calx::jacfwd(fx))(x)), fd2, rel);
  }
}

}  // namespace calx_test

#endif  // CALX_TESTS_LOOP_CHECKS_HPP
