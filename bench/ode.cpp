/// @file bench/ode.cpp
/// @brief An ODE integrated with calx::scan against hand-written xsimd code, in the same
/// binary and run, one thread (issue 10). A driven, damped pendulum, explicit Euler over
/// 1000 steps of dt = 0.01:
///   theta' = omega,  omega' = f(t) - k sin(theta) - c omega,
/// the forcing f given per step (the scanned input, shared by every sample); the loss is
/// dt * sum over the steps of theta^2 (a running sum in the carry) + omega(T)^2. Over 4096 initial states
/// (theta0, omega0), one sample per SIMD lane:
///   - `value`: vmap(loss), against a hand-written forward loop;
///   - `grad`: vmap(grad(loss)) with respect to theta0, omega0, k and c (per-sample
///     gradients of the initial state and the parameters), against hand-written forward and
///     adjoint code that stores (theta, omega) at every step and recomputes sin and cos
///     backwards, as calx's reverse loop does.
/// Both write into preallocated buffers. f32 and f64 (the f32 programs are compiled in
/// bench/ode_f32.cpp, the shared code is bench/ode.hpp). Prints `ratio=` calx / hand (target
/// <= 1.10).
///
///   bench_ode --benchmark_repetitions=10 --benchmark_enable_random_interleaving=true
#include "ode.hpp"

#include <xsimd/xsimd.hpp>

#include <cstdio>

// Compiled in bench/ode_f32.cpp.
extern template void calx_bench::ode::register_type<float>();

int main(int argc, char** argv) {
  std::printf("xsimd arch: %s\n", xsimd::default_arch::name());
  calx_bench::ode::register_type<float>();
  calx_bench::ode::register_type<double>();
  return calx_bench::run_benchmarks(argc, argv);
}
