// The dispatched Greeks of 2^20 options against calx's scalar code, option by option; with
// --time, the best of 20 calls in nanoseconds per option (docs/performance.md, "Fast without
// -march").
#include "greeks.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <vector>

namespace {
struct columns {
  std::vector<double> S, K, T, r, sigma, price, delta, theta, rho, vega;
  explicit columns(std::size_t n) : S(n), K(n), T(n), r(n), sigma(n), price(n), delta(n), theta(n), rho(n), vega(n) {
    unsigned long long state = 12345;
    auto u = [&](double lo, double hi) {
      state = state * 6364136223846793005ULL + 1442695040888963407ULL;
      return lo + (hi - lo) * static_cast<double>(state >> 11) / static_cast<double>(1ULL << 53);
    };
    for (std::size_t i = 0; i < n; ++i) {
      S[i] = u(50, 150);
      K[i] = u(50, 150);
      T[i] = u(0.1, 2);
      r[i] = u(0, 0.08);
      sigma[i] = u(0.05, 0.6);
    }
  }
  options_view view() { return {S, K, T, r, sigma, price, delta, theta, rho, vega}; }
};

/// The instruction set calx::simd_dispatch picks on this CPU: the first of the list it has.
template <class... A>
const char* picked(xsimd::arch_list<A...>) {
  const char* name = "none";
  bool found = false;
  ((!found && A::available() ? (name = A::name(), found = true) : false), ...);
  return name;
}
}  // namespace

int main(int argc, char** argv) {
  const std::size_t n = std::size_t{1} << 20;
  columns c(n);
  auto greeks = calx::simd_dispatch(run_greeks{});
  greeks(c.view());
  if (argc > 1 && std::strcmp(argv[1], "--time") == 0) {
    auto time = [&](const char* what, auto&& call) {
      double best = 1e300;
      for (int k = 0; k < 20; ++k) {
        const auto t0 = std::chrono::steady_clock::now();
        call();
        const auto t1 = std::chrono::steady_clock::now();
        best = std::min(best, std::chrono::duration<double, std::nano>(t1 - t0).count() / static_cast<double>(n));
      }
      std::printf("%-24s %.3f ns per option (best of 20 calls of 2^20 options, one thread)\n", what, best);
    };
    time("dispatched", [&] { greeks(c.view()); });
    // Each compiled copy called directly (those this CPU has).
    [&]<class... A>(xsimd::arch_list<A...>) {
      ((A::available() ? time(A::name(), [&] { run_greeks{}(A{}, c.view()); }) : void()), ...);
    }(calx::simd_dispatch_archs{});
  }
  // Against calx's scalar code (libm's erfc and exp; xsimd's differ by ~1e-15 relative):
  // the dispatched call's results, then each compiled copy's that this CPU can run.
  int failures = 0;
  auto check = [&](const char* what) {
    for (std::size_t i = 0; i < n; i += 97) {
      const auto [p, g] =
          calx::value_and_grad(black_scholes, calx::argnums<0, 2, 3, 4>)(c.S[i], c.K[i], c.T[i], c.r[i], c.sigma[i]);
      const double want[] = {p, std::get<0>(g), std::get<1>(g), std::get<2>(g), std::get<3>(g)};
      const double got[] = {c.price[i], c.delta[i], c.theta[i], c.rho[i], c.vega[i]};
      for (int k = 0; k < 5; ++k)
        if (!(std::abs(got[k] - want[k]) <= 1e-9 * std::max(1.0, std::abs(want[k])))) {
          if (failures < 5) std::printf("%s: option %zu, output %d: %.17g, want %.17g\n", what, i, k, got[k], want[k]);
          ++failures;
        }
    }
  };
  check("dispatched");
  [&]<class... A>(xsimd::arch_list<A...>) {
    auto one = [&](auto arch) {
      for (auto* v : {&c.price, &c.delta, &c.theta, &c.rho, &c.vega}) std::fill(v->begin(), v->end(), 0.0);
      run_greeks{}(arch, c.view());
      check(decltype(arch)::name());
    };
    ((A::available() ? one(A{}) : void()), ...);
  }(calx::simd_dispatch_archs{});
  std::printf("dispatch: %s; picked %s (of the archs the kernels were compiled for)\n", failures == 0 ? "ok" : "FAILED",
              picked(calx::simd_dispatch_archs{}));
  return failures == 0 ? 0 : 1;
}
