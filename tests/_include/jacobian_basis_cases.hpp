/// @file tests/_include/jacobian_basis_cases.hpp
/// @brief The functions and inputs of tests/jacobian.basis.*.cpp: Jacobians over tensors
/// of more than 8 elements, which loop over the basis (detail/call/jacobian.hpp).
#ifndef CALX_TESTS_JACOBIAN_BASIS_CASES_HPP
#define CALX_TESTS_JACOBIAN_BASIS_CASES_HPP

#include <calx/calx.hpp>

#include <cmath>

namespace calx_test::basis_cases {

template <int N>
using vec = calx::tensor<double, N>;

/// y_i = tanh(x_i / 2) * sum(x): every output depends on every input.
struct squashed {
  template <class X>
  constexpr auto operator()(const X& x) const {
    return calx::tanh(x * 0.5) * calx::sum(x);
  }
};
/// d y_i / d x_j = [i == j] (1 - t_i^2) / 2 * s + t_i, t_i = tanh(x_i / 2), s = sum(x).
template <int N>
double squashed_entry(const vec<N>& x, int i, int j) {
  double s = 0;
  for (int k = 0; k < N; ++k) s += x[k];
  const double t = std::tanh(0.5 * x[i]);
  return (i == j ? 0.5 * (1 - t * t) * s : 0.0) + t;
}

/// s(x) = sum(tanh(x) * x) + sum(x)^2 / 2.
struct energy {
  template <class X>
  constexpr auto operator()(const X& x) const {
    const auto s = calx::sum(x);
    return calx::sum(calx::tanh(x) * x) + s * s * 0.5;
  }
};

/// x_i = from + step * i.
template <int N>
vec<N> ramp(double from, double step) {
  vec<N> x;
  for (int i = 0; i < N; ++i) x[i] = from + step * i;
  return x;
}

/// The basis vector e_j of N elements.
template <int N>
vec<N> basis(int j) {
  vec<N> e;
  for (int i = 0; i < N; ++i) e[i] = i == j ? 1.0 : 0.0;
  return e;
}

}  // namespace calx_test::basis_cases

#endif  // CALX_TESTS_JACOBIAN_BASIS_CASES_HPP
