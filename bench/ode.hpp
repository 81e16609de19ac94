/// @file bench/ode.hpp
/// @brief bench_ode's problem, its calx and hand-written code and their registration, for
/// either precision: bench/ode.cpp instantiates it for double (and runs the benchmarks),
/// bench/ode_f32.cpp for float, so that each translation unit compiles one precision's
/// programs (the compile budget of a benchmark TU, docs/testing.md). See bench/ode.cpp.
#ifndef CALX_BENCH_ODE_HPP
#define CALX_BENCH_ODE_HPP

#include "bench_common.hpp"
#include "hand.hpp"

#include <calx/calx.hpp>

#include <xsimd/xsimd.hpp>

#include <array>
#include <cmath>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

namespace calx_bench::ode {

inline constexpr std::size_t steps = 1000, samples = 4096;
inline constexpr double dt = 0.01;

inline constexpr auto loss = [](auto theta0, auto omega0, auto k, auto c, const auto& force) {
  const auto end = calx::scan(
                       [](auto s, auto f) {
                         const auto [theta, omega, kk, cc, sum] = s;
                         const auto next_theta = theta + dt * omega;
                         const auto next_omega = omega + dt * (f - kk * calx::sin(theta) - cc * omega);
                         return std::pair{std::array{next_theta, next_omega, kk, cc, sum + next_theta * next_theta},
                                          std::tuple{}};
                       },
                       std::array{theta0, omega0, k, c, 0.0 * theta0}, force)
                       .first;
  return dt * end[4] + end[1] * end[1];
};

template <class T>
struct problem {
  std::vector<T> theta0, omega0;
  T k = T(9.81), c = T(0.3);
  calx::tensor<T, steps> force;
  std::vector<T> value;
  std::vector<T> d_theta0, d_omega0, d_k, d_c;
};

template <class T>
problem<T> make_problem() {
  problem<T> p;
  fill_uniform(p.theta0, samples, -1.5, 1.5, 21);
  fill_uniform(p.omega0, samples, -1.0, 1.0, 22);
  for (std::size_t i = 0; i < steps; ++i) p.force[i] = T(0.5) * std::sin(T(0.03) * T(i));
  p.value.assign(samples, T(0));
  for (auto* v : {&p.d_theta0, &p.d_omega0, &p.d_k, &p.d_c}) v->assign(samples, T(0));
  return p;
}

inline constexpr auto per_sample = calx::in_axes<0, 0, calx::none, calx::none, calx::none>;

template <class T>
[[gnu::noinline]] void calx_value(problem<T>& p) {
  calx::vmap(loss, per_sample).into(p.value)(p.theta0, p.omega0, p.k, p.c, p.force);
}

template <class T>
[[gnu::noinline]] void calx_grad(problem<T>& p) {
  auto out = std::tie(p.d_theta0, p.d_omega0, p.d_k, p.d_c);
  calx::vmap(calx::grad(loss, calx::argnums<0, 1, 2, 3>), per_sample).into(out)(p.theta0, p.omega0, p.k, p.c, p.force);
}

/// Hand-written forward loop, W samples at a time.
template <class T>
[[gnu::noinline]] void hand_value(problem<T>& p) {
  using B = xsimd::batch<T>;
  constexpr std::size_t W = B::size;
  const B h(static_cast<T>(dt)), k(p.k), c(p.c);
  for (std::size_t s = 0; s < samples; s += W) {
    B theta = B::load_unaligned(&p.theta0[s]), omega = B::load_unaligned(&p.omega0[s]);
    B sum(T(0));
    for (std::size_t i = 0; i < steps; ++i) {
      const B next_theta = theta + h * omega;
      omega = omega + h * (B(p.force[i]) - k * xsimd::sin(theta) - c * omega);
      theta = next_theta;
      sum = sum + theta * theta;
    }
    (h * sum + omega * omega).store_unaligned(&p.value[s]);
  }
}

/// Hand-written forward and adjoint loops, W samples at a time: the forward loop stores
/// (theta, omega) of every step, the adjoint loop runs the chain rule backwards.
template <class T>
[[gnu::noinline]] void hand_grad(problem<T>& p) {
  using B = xsimd::batch<T>;
  constexpr std::size_t W = B::size;
  const B h(static_cast<T>(dt)), k(p.k), c(p.c), one(T(1)), two(T(2));
  static thread_local std::vector<B> saved(2 * steps);
  for (std::size_t s = 0; s < samples; s += W) {
    B theta = B::load_unaligned(&p.theta0[s]), omega = B::load_unaligned(&p.omega0[s]);
    for (std::size_t i = 0; i < steps; ++i) {
      saved[2 * i] = theta;
      saved[2 * i + 1] = omega;
      const B next_theta = theta + h * omega;
      omega = omega + h * (B(p.force[i]) - k * xsimd::sin(theta) - c * omega);
      theta = next_theta;
    }
    // adjoints of theta and omega after step i; the loss's terms enter as their steps pass
    B a_theta(T(0)), a_omega = two * omega, g_k(T(0)), g_c(T(0));
    for (std::size_t i = steps; i-- > 0;) {
      const B th = saved[2 * i], om = saved[2 * i + 1];
      a_theta = a_theta + two * h * (th + h * om);  // d(dt theta_{i+1}^2) / d theta_{i+1}
      g_k = g_k - a_omega * h * xsimd::sin(th);
      g_c = g_c - a_omega * h * om;
      const B new_theta = a_theta - a_omega * h * k * xsimd::cos(th);
      a_omega = a_theta * h + a_omega * (one - h * c);
      a_theta = new_theta;
    }
    a_theta.store_unaligned(&p.d_theta0[s]);
    a_omega.store_unaligned(&p.d_omega0[s]);
    g_k.store_unaligned(&p.d_k[s]);
    g_c.store_unaligned(&p.d_c[s]);
  }
}

template <class P, void (*Run)(P&)>
[[gnu::noinline]] void bm(benchmark::State& state, P* p) {
  for (auto _ : state) {
    Run(*p);
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * samples));
}

template <class T>
const char* type_name() {
  return sizeof(T) == 4 ? "f32" : "f64";
}

/// The largest difference between two buffers, relative to 1 + |b|.
template <class T>
double max_rel(const std::vector<T>& a, const std::vector<T>& b) {
  double e = 0;
  for (std::size_t i = 0; i < a.size(); ++i)
    e = std::max(e, std::abs(double(a[i]) - double(b[i])) / (1 + std::abs(double(b[i]))));
  return e;
}

template <class T>
void register_type() {
  static std::deque<problem<T>> problems;
  problem<T>& p = problems.emplace_back(make_problem<T>());
  {
    // The same numbers from both, to the precision of 1000 steps' rounding (each step's
    // libm call may differ by an ulp or two between calx's SIMD math and xsimd's).
    const double tol = sizeof(T) == 4 ? 2e-3 : 1e-9;
    problem<T> a = p, b = p;
    calx_value(a);
    hand_value(b);
    calx_grad(a);
    hand_grad(b);
    const double e = std::max({max_rel(a.value, b.value), max_rel(a.d_theta0, b.d_theta0), max_rel(a.d_omega0, b.d_omega0),
                               max_rel(a.d_k, b.d_k), max_rel(a.d_c, b.d_c)});
    if (!(e <= tol)) {
      std::printf("check failed (ode %s): difference %.3g\n", type_name<T>(), e);
      std::exit(1);
    }
  }
  const std::string t = type_name<T>();
  auto reg = [&](std::string name, auto fn) {
    benchmark::RegisterBenchmark(name.c_str(), fn, &p)->ComputeStatistics("min", min_of)->Unit(benchmark::kMillisecond);
  };
  reg("ode/value/" + t + "/calx", bm<problem<T>, &calx_value<T>>);
  reg("ode/value/" + t + "/hand", bm<problem<T>, &hand_value<T>>);
  reg("ode/grad/" + t + "/calx", bm<problem<T>, &calx_grad<T>>);
  reg("ode/grad/" + t + "/hand", bm<problem<T>, &hand_grad<T>>);
  compare(t + " ODE value (scan, 1000 steps, 4096 samples), calx / hand", "ode/value/" + t + "/calx",
          "ode/value/" + t + "/hand");
  compare(t + " ODE gradient (scan, 1000 steps, 4096 samples), calx / hand", "ode/grad/" + t + "/calx",
          "ode/grad/" + t + "/hand");
}

}  // namespace calx_bench::ode

#endif  // CALX_BENCH_ODE_HPP
