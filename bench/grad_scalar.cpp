/// @file bench/grad_scalar.cpp
/// @brief Differentiation transforms, scalar: value and full gradient per point of Rosenbrock
/// (in x, y) and of the Black-Scholes call price (in S, K, T, r, sigma), over 1<<20 points in
/// a plain scalar loop (double). calx::value_and_grad against hand-written analytic
/// derivatives, in the same binary with the same flags. Prints `ratio=` calx / hand.
///
///   bench_grad_scalar --benchmark_repetitions=10 --benchmark_enable_random_interleaving=true
#include "bench_common.hpp"
#include "functions.hpp"
#include "hand.hpp"

#include <calx/calx.hpp>

#include <cstdio>
#include <cstdlib>
#include <tuple>
#include <vector>

namespace {

using namespace calx_bench;

// ---- the loops: one function each, never inlined, so each can be read in the assembly ----

constexpr auto rosenbrock_vg = calx::value_and_grad(rosenbrock, calx::argnums<0, 1>);
constexpr auto black_scholes_vg = calx::value_and_grad(black_scholes, calx::argnums<0, 1, 2, 3, 4>);

[[gnu::noinline]] void rosenbrock_calx_loop(std::size_t n, const double* x, const double* y, double* v, double* dx,
                                            double* dy) {
  for (std::size_t i = 0; i < n; ++i) {
    auto [value, grad] = rosenbrock_vg(x[i], y[i]);
    v[i] = value;
    dx[i] = std::get<0>(grad);
    dy[i] = std::get<1>(grad);
  }
}

// The same with `const auto [value, grad]`: GCC 12 then keeps the gradient tuple in memory
// (its SLP vectorizer packs dx, dy into one 16-byte stack store and reloads them), which a
// plain `auto` binding avoids. Benchmarked to document it; see docs/performance.md.
[[gnu::noinline]] void rosenbrock_calx_const_loop(std::size_t n, const double* x, const double* y, double* v,
                                                  double* dx, double* dy) {
  for (std::size_t i = 0; i < n; ++i) {
    const auto [value, grad] = rosenbrock_vg(x[i], y[i]);
    v[i] = value;
    dx[i] = std::get<0>(grad);
    dy[i] = std::get<1>(grad);
  }
}

[[gnu::noinline]] void rosenbrock_hand_loop(std::size_t n, const double* x, const double* y, double* v, double* dx,
                                            double* dy) {
  for (std::size_t i = 0; i < n; ++i) {
    auto r = rosenbrock_hand(x[i], y[i]);
    v[i] = r.value;
    dx[i] = r.dx;
    dy[i] = r.dy;
  }
}

struct bs_columns {
  std::vector<double> S, K, T, r, sigma;        // inputs
  std::vector<double> v, dS, dK, dT, dr, dsig;  // outputs
};

[[gnu::noinline]] void black_scholes_calx_loop(std::size_t n, bs_columns& c) {
  const double *S = c.S.data(), *K = c.K.data(), *T = c.T.data(), *r = c.r.data(), *sigma = c.sigma.data();
  double *v = c.v.data(), *dS = c.dS.data(), *dK = c.dK.data(), *dT = c.dT.data(), *dr = c.dr.data(),
         *dsig = c.dsig.data();
  for (std::size_t i = 0; i < n; ++i) {
    auto [value, grad] = black_scholes_vg(S[i], K[i], T[i], r[i], sigma[i]);
    v[i] = value;
    dS[i] = std::get<0>(grad);
    dK[i] = std::get<1>(grad);
    dT[i] = std::get<2>(grad);
    dr[i] = std::get<3>(grad);
    dsig[i] = std::get<4>(grad);
  }
}

/// The hand-written loop: closed-form Greeks (`Chain` false) or the chain rule as reverse
/// mode computes them (`Chain` true, the same op mix as calx's; libm throughout).
template <bool Chain>
[[gnu::noinline]] void black_scholes_hand_loop(std::size_t n, bs_columns& c) {
  const double *S = c.S.data(), *K = c.K.data(), *T = c.T.data(), *r = c.r.data(), *sigma = c.sigma.data();
  double *v = c.v.data(), *dS = c.dS.data(), *dK = c.dK.data(), *dT = c.dT.data(), *dr = c.dr.data(),
         *dsig = c.dsig.data();
  for (std::size_t i = 0; i < n; ++i) {
    auto g = Chain ? black_scholes_chain(S[i], K[i], T[i], r[i], sigma[i])
                   : black_scholes_hand(S[i], K[i], T[i], r[i], sigma[i]);
    v[i] = g.value;
    dS[i] = g.dS;
    dK[i] = g.dK;
    dT[i] = g.dT;
    dr[i] = g.dr;
    dsig[i] = g.dsigma;
  }
}

// ---- data ----------------------------------------------------------------------------------

struct rosenbrock_columns {
  std::vector<double> x, y, v, dx, dy;
};

rosenbrock_columns& rosenbrock_data() {
  static rosenbrock_columns c = [] {
    rosenbrock_columns d;
    fill_uniform(d.x, points, -2.0, 2.0, 1);
    fill_uniform(d.y, points, -1.0, 3.0, 2);
    d.v.assign(points, 0.0);
    d.dx.assign(points, 0.0);
    d.dy.assign(points, 0.0);
    return d;
  }();
  return c;
}

bs_columns& black_scholes_data() {
  static bs_columns c = [] {
    bs_columns d;
    fill_uniform(d.S, points, 50.0, 150.0, 3);
    fill_uniform(d.K, points, 50.0, 150.0, 4);
    fill_uniform(d.T, points, 0.1, 2.0, 5);
    fill_uniform(d.r, points, 0.0, 0.08, 6);
    fill_uniform(d.sigma, points, 0.05, 0.6, 7);
    for (auto* col : {&d.v, &d.dS, &d.dK, &d.dT, &d.dr, &d.dsig}) col->assign(points, 0.0);
    return d;
  }();
  return c;
}

/// calx and the hand-written code agree (checked once, before any timing).
void check_agreement() {
  {
    rosenbrock_columns& d = rosenbrock_data();
    rosenbrock_columns h = d;
    rosenbrock_calx_loop(points, d.x.data(), d.y.data(), d.v.data(), d.dx.data(), d.dy.data());
    rosenbrock_hand_loop(points, h.x.data(), h.y.data(), h.v.data(), h.dx.data(), h.dy.data());
    const double e = std::max({max_rel_diff(d.v, h.v), max_rel_diff(d.dx, h.dx), max_rel_diff(d.dy, h.dy)});
    std::printf("check: rosenbrock      calx vs hand, max relative difference %.3g\n", e);
    if (!(e <= 1e-9)) std::exit(1);  // FMA contraction differs between the two (clang: within expressions only)
  }
  for (bool chain : {false, true}) {
    bs_columns& d = black_scholes_data();
    bs_columns h = d;
    black_scholes_calx_loop(points, d);
    if (chain)
      black_scholes_hand_loop<true>(points, h);
    else
      black_scholes_hand_loop<false>(points, h);
    const double e = std::max({max_rel_diff(d.v, h.v), max_rel_diff(d.dS, h.dS), max_rel_diff(d.dK, h.dK),
                               max_rel_diff(d.dT, h.dT), max_rel_diff(d.dr, h.dr), max_rel_diff(d.dsig, h.dsig)});
    std::printf("check: black_scholes   calx vs hand (%s), max relative difference %.3g\n",
                chain ? "chain rule" : "closed form", e);
    if (!(e <= 1e-9)) std::exit(1);
  }
}

// ---- benchmarks ------------------------------------------------------------------------------

template <int Which>  // 0: hand, 1: calx, 2: calx with a const binding
void bm_rosenbrock(benchmark::State& state) {
  rosenbrock_columns& d = rosenbrock_data();
  constexpr auto loop = Which == 0 ? rosenbrock_hand_loop : Which == 1 ? rosenbrock_calx_loop : rosenbrock_calx_const_loop;
  for (auto _ : state) {
    loop(points, d.x.data(), d.y.data(), d.v.data(), d.dx.data(), d.dy.data());
    benchmark::DoNotOptimize(d.v.data());
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * points));
}

template <int Which>  // 0: closed-form hand, 1: calx, 2: chain-rule hand
void bm_black_scholes(benchmark::State& state) {
  bs_columns& d = black_scholes_data();
  for (auto _ : state) {
    if constexpr (Which == 1)
      black_scholes_calx_loop(points, d);
    else
      black_scholes_hand_loop<Which == 2>(points, d);
    benchmark::DoNotOptimize(d.v.data());
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * points));
}

}  // namespace

int main(int argc, char** argv) {
  check_agreement();
  auto reg = [](const char* name, void (*fn)(benchmark::State&)) {
    benchmark::RegisterBenchmark(name, fn)->Unit(benchmark::kMillisecond)->ComputeStatistics("min", min_of);
  };
  reg("grad_scalar/rosenbrock/calx", bm_rosenbrock<1>);
  reg("grad_scalar/rosenbrock/hand", bm_rosenbrock<0>);
  reg("grad_scalar/rosenbrock/calx_const_binding", bm_rosenbrock<2>);
  reg("grad_scalar/black_scholes/calx", bm_black_scholes<1>);
  reg("grad_scalar/black_scholes/hand", bm_black_scholes<0>);
  reg("grad_scalar/black_scholes/chain", bm_black_scholes<2>);
  compare("rosenbrock calx/hand", "grad_scalar/rosenbrock/calx", "grad_scalar/rosenbrock/hand");
  compare("rosenbrock calx_const_binding/hand", "grad_scalar/rosenbrock/calx_const_binding",
          "grad_scalar/rosenbrock/hand");
  compare("black_scholes calx/chain", "grad_scalar/black_scholes/calx", "grad_scalar/black_scholes/chain");
  compare("black_scholes calx/hand (closed form)", "grad_scalar/black_scholes/calx", "grad_scalar/black_scholes/hand");
  compare("black_scholes chain/hand (closed form)", "grad_scalar/black_scholes/chain", "grad_scalar/black_scholes/hand");
  return run_benchmarks(argc, argv);
}
