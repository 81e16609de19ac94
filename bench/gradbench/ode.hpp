/// @file bench/gradbench/ode.hpp
/// @brief GradBench's ode (evals/ode): s steps of fourth-order Runge-Kutta from y = 0 to
/// t = 2 for y' = f(x, y), f(x, y)[0] = x[0], f(x, y)[i] = x[i] y[i-1]; the primal is the
/// final y, the gradient that of its last element with respect to x.
///
/// n is a compile-time size (the eval's defaults: 1000, 10000, 100000); the number of steps
/// is a runtime int, the trip count of one calx::fori_loop. A TU per n (ode_1000.cpp,
/// ode_10000.cpp, ode_100000.cpp) for the compile budget: a loop's derivative loops are made
/// with it, about 14 s of g++ each.
#ifndef CALX_BENCH_GRADBENCH_ODE_HPP
#define CALX_BENCH_GRADBENCH_ODE_HPP

#include "protocol.hpp"

#include <calx/calx.hpp>

#include <array>
#include <memory>
#include <tuple>

namespace calx_gradbench::ode_eval {

template <std::size_t N>
struct ode {
  static constexpr auto f = [](const auto& x, const auto& y) {
    return calx::concatenate(calx::slice<0, 1>(x), calx::slice<1, N>(x) * calx::slice<0, N - 1>(y));
  };
  /// y after `steps` steps of h from 0: the loop carries x and h along with y (its body is
  /// stateless), and reverse mode keeps only y, the carry that changes.
  static constexpr auto solve = [](const auto& x, auto h, auto steps) {
    const auto end = calx::fori_loop(
        0, steps,
        [](auto, const auto& carry) {
          const auto& [x, y, h] = carry;
          const auto k1 = f(x, y);
          const auto k2 = f(x, y + h / 2 * k1);
          const auto k3 = f(x, y + h / 2 * k2);
          const auto k4 = f(x, y + h * k3);
          return std::tuple{x, y + h / 6 * (k1 + 2.0 * k2 + 2.0 * k3 + k4), h};
        },
        std::tuple{x, 0.0 * x, h});
    return std::get<1>(end);
  };
  static constexpr auto last = [](const auto& x, auto h, auto steps) {
    return calx::sum(calx::slice<N - 1, N>(solve(x, h, steps)));
  };
};

template <std::size_t N>
struct ode_state {
  heap_tensor<calx::tensor<double, N>> x, out;
  int steps = 1;
  double h = 2.0;
};

template <std::size_t N>
ode_state<N> read(const json& input) {
  ode_state<N> s;
  read_numbers(input.at("x"), *s.x);
  s.steps = input.at("s").get<int>();
  if (s.steps < 1) throw std::invalid_argument("ode: s must be at least 1; the input has " + std::to_string(s.steps));
  s.h = 2.0 / s.steps;
  return s;
}

/// The sizes compiled, a TU each (ode_<n>.cpp).
inline constexpr std::array<std::size_t, 3> ode_sizes{1000, 10000, 100000};

/// `primal` or `gradient` at n = N.
template <std::size_t N>
std::unique_ptr<evaluation> prepare(bool gradient, const json& input) {
  using S = ode_state<N>;
  const auto out = [](const S& s) { return numbers_json(*s.out); };
  if (gradient)
    return make_evaluation(
        read<N>(input), [](S& s) { *s.out = calx::grad(ode<N>::last)(*s.x, s.h, s.steps); }, out);
  return make_evaluation(
      read<N>(input), [](S& s) { *s.out = calx::trace(ode<N>::solve, *s.x, s.h, s.steps)(*s.x, s.h, s.steps); }, out);
}

extern template std::unique_ptr<evaluation> prepare<1000>(bool, const json&);
extern template std::unique_ptr<evaluation> prepare<10000>(bool, const json&);
extern template std::unique_ptr<evaluation> prepare<100000>(bool, const json&);

}  // namespace calx_gradbench::ode_eval

#endif
