/// @file bench/user_ops.cpp
/// @brief What a user op costs. `calx::vmap(calx::grad(f, argnums<0, 1>))` over 1<<20 points,
/// one thread, into preallocated 64-byte aligned columns, f32 and f64, of
///   f(x, y) = logaddexp(x, y) + softplus(x * y),
/// written four ways:
///   - `user_ops`: `logaddexp` and `softplus` are user ops, exactly as docs/extending.md
///     defines them (tests/_include/user_ops.hpp): softplus by a decomposition only; logaddexp with its own scalar kernel
///     and its own vjp `ct * exp(a - y)` but no SIMD kernel, so the SIMD loop runs its
///     decomposition and the backward pass its own vjp;
///   - `user_decomposition`: the same user ops, logaddexp without its own vjp (so both are
///     differentiated through their decompositions);
///   - `builtin`: the decompositions written out with built-in ops, no user op;
///   - `hand_chain` (the reference): hand-written xsimd reverse mode of the decompositions,
///     with xsimd's exp and log1p; `hand_own_vjp`: the same with logaddexp's derivative
///     taken as the user's rule writes it (`exp(a - y)`, `exp(b - y)`).
/// Prints `ratio=` for user_ops / builtin (the price of the op mechanism, target <= 1.05),
/// user_decomposition / builtin, user_ops / hand_own_vjp and builtin / hand_chain (calx
/// against hand code with the same op mix, target <= 1.10).
///
///   bench_user_ops --benchmark_repetitions=10 --benchmark_enable_random_interleaving=true
#include "bench_common.hpp"
#include "hand.hpp"

// The user ops softplus and logaddexp, as the tests and docs/extending.md define them.
#include <_include/user_ops.hpp>

#include <calx/calx.hpp>

#include <xsimd/xsimd.hpp>

#include <cmath>
#include <concepts>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <span>
#include <string>
#include <tuple>

namespace user {
struct logaddexp_decomposed_op {};
}  // namespace user

template <>
struct calx::op_traits<user::logaddexp_decomposed_op> {
  static constexpr const char* name = "logaddexp_decomposed";
  static constexpr int arity = 2;
  static constexpr auto decomposition(const auto& a, const auto& b) {
    auto m = calx::max(a, b);
    return m + calx::log1p(calx::exp(-calx::abs(a - b)));
  }
};

namespace {

using namespace calx_bench;

using user::logaddexp;
using user::softplus;
constexpr calx::op_fn<user::logaddexp_decomposed_op> logaddexp_decomposed{};

constexpr auto f_user = [](auto x, auto y) { return logaddexp(x, y) + softplus(x * y); };
constexpr auto f_user_decomposition = [](auto x, auto y) { return logaddexp_decomposed(x, y) + softplus(x * y); };
constexpr auto f_builtin = [](auto x, auto y) {
  auto m = calx::max(x, y);
  return m + calx::log1p(calx::exp(-calx::abs(x - y))) + calx::log1p(calx::exp(x * y));
};

template <class V>
struct gradient {
  V dx, dy;
};

/// Reverse mode of f_builtin by hand (the chain rule through max, abs, exp and log1p).
template <class V>
CALX_BENCH_INLINE gradient<V> hand_chain(const V& x, const V& y) {
  using std::exp;
  using xsimd::exp;
  const V d = x - y;
  const V e = exp(-xsimd::abs(d));           // forward of logaddexp
  const V p = exp(x * y);                    // forward of softplus
  const V ge = e / (V(1) + e);               // d log1p(e) / d(-|d|)
  const V gp = p / (V(1) + p);               // d log1p(p) / d(x y)
  const auto x_wins = x > y;                 // max's derivative, and -sign(d)
  const V gd = xsimd::select(x_wins, -ge, ge);
  const V dmx = xsimd::select(x_wins, V(1), V(0));
  return {dmx + gd + gp * y, (V(1) - dmx) - gd + gp * x};
}

/// calx's max: NaN-propagating, as std::fmax is not and JAX's max is (xsimd::max returns
/// the second argument when the first is NaN). The hand versions below that stand for calx's
/// op mix use it, so that calx and the hand code compute the same function.
template <class V>
CALX_BENCH_INLINE V nan_max(const V& a, const V& b) {
  return xsimd::select((a > b) | !(a == a), a, b);
}

/// hand_chain with the derivative calx (and JAX) give max at ties, 1/2 to each side, and
/// abs's derivative at 0: the same op mix as calx's program.
template <class V>
CALX_BENCH_INLINE gradient<V> hand_chain_ties(const V& x, const V& y) {
  using xsimd::exp;
  const V m = nan_max(x, y);
  const V d = x - y;
  const V e = exp(-xsimd::abs(d));
  const V p = exp(x * y);
  const V gp = p * (V(1) / (V(1) + p));
  const V ge = e * (V(1) / (V(1) + e));
  const V gd = xsimd::select(d >= V(0), -ge, ge);
  const auto xm = x == m, ym = y == m;
  const V dmx = xsimd::select(xm, xsimd::select(ym, V(0.5), V(1)), V(0));
  const V dmy = xsimd::select(ym, xsimd::select(xm, V(0.5), V(1)), V(0));
  return {gp * y + gd + dmx, gp * x - gd + dmy};
}

/// The same with logaddexp's derivative as the user's rule writes it: exp(a - y), exp(b - y).
template <class V>
CALX_BENCH_INLINE gradient<V> hand_own_vjp(const V& x, const V& y) {
  using xsimd::exp;
  const V m = nan_max(x, y);
  const V l = m + xsimd::log1p(exp(-xsimd::abs(x - y)));
  const V p = exp(x * y);
  const V gp = p / (V(1) + p);
  return {exp(x - l) + gp * y, exp(y - l) + gp * x};
}

template <class T>
struct problem {
  calx::batched<T> x, y, dx, dy;
};

template <class T>
problem<T> make() {
  problem<T> p;
  fill_uniform(p.x, points, -3.0, 3.0, 41);
  fill_uniform(p.y, points, -3.0, 3.0, 42);
  p.dx.assign(points, T(0));
  p.dy.assign(points, T(0));
  return p;
}

template <auto F, class T>
CALX_BENCH_INLINE void calx_into(problem<T>& p) {
  std::tuple<std::span<T>, std::span<T>> out{p.dx, p.dy};
  calx::vmap(calx::grad(F, calx::argnums<0, 1>)).into(out)(p.x, p.y);
}

template <class T, gradient<xsimd::batch<T>> (*Hand)(const xsimd::batch<T>&, const xsimd::batch<T>&)>
CALX_BENCH_INLINE void hand_loop(problem<T>& p) {
  using V = xsimd::batch<T>;
  const std::size_t n = p.x.size();
  const T *x = p.x.data(), *y = p.y.data();
  T *dx = p.dx.data(), *dy = p.dy.data();
  std::size_t i = 0;
  for (; i + V::size <= n; i += V::size) {
    const auto g = Hand(V::load_unaligned(x + i), V::load_unaligned(y + i));
    g.dx.store_unaligned(dx + i);
    g.dy.store_unaligned(dy + i);
  }
  // points is a multiple of every batch size: no scalar tail.
  static_assert(points % 16 == 0);
}

template <class T, void (*Run)(problem<T>&)>
[[gnu::noinline]] void bm(benchmark::State& state, problem<T>* p) {
  for (auto _ : state) {
    Run(*p);
    benchmark::DoNotOptimize(p->dx.data());
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * p->x.size()));
}

template <class T>
void register_type() {
  static std::deque<problem<T>> store;
  problem<T>& p = store.emplace_back(make<T>());
  constexpr auto user = &calx_into<f_user, T>;
  constexpr auto user_decomposition = &calx_into<f_user_decomposition, T>;
  constexpr auto builtin = &calx_into<f_builtin, T>;
  constexpr auto chain = &hand_loop<T, &hand_chain<xsimd::batch<T>>>;
  constexpr auto own_vjp = &hand_loop<T, &hand_own_vjp<xsimd::batch<T>>>;
  constexpr auto chain_ties = &hand_loop<T, &hand_chain_ties<xsimd::batch<T>>>;

  // Every variant computes the same gradient before anything is timed.
  problem<T> reference = p;
  chain(reference);
  for (auto run : {user, user_decomposition, builtin, own_vjp, chain_ties}) {
    problem<T> q = p;
    run(q);
    const double e = std::max(max_rel_diff(q.dx, reference.dx, 1.0), max_rel_diff(q.dy, reference.dy, 1.0));
    if (!(e <= (sizeof(T) == 4 ? 1e-5 : 1e-13))) {
      std::printf("check failed (%s): difference %.3g\n", type_name<T>(), e);
      std::exit(1);
    }
  }

  const std::string base = std::string("user_ops/") + type_name<T>() + "/";
  auto reg = [&](const char* name, void (*fn)(benchmark::State&, problem<T>*)) {
    benchmark::RegisterBenchmark((base + name).c_str(), fn, &p)->ComputeStatistics("min", min_of);
  };
  reg("user_ops", bm<T, user>);
  reg("user_decomposition", bm<T, user_decomposition>);
  reg("builtin", bm<T, builtin>);
  reg("hand_chain", bm<T, chain>);
  reg("hand_own_vjp", bm<T, own_vjp>);
  reg("hand_chain_ties", bm<T, chain_ties>);
  const std::string t = type_name<T>();
  compare(t + " user ops / built-ins", base + "user_ops", base + "builtin");
  compare(t + " user decomposition / built-ins", base + "user_decomposition", base + "builtin");
  compare(t + " user ops / hand (same rule)", base + "user_ops", base + "hand_own_vjp");
  compare(t + " built-ins / hand chain", base + "builtin", base + "hand_chain");
  compare(t + " built-ins / hand chain, ties", base + "builtin", base + "hand_chain_ties");
  compare(t + " user ops / hand chain", base + "user_ops", base + "hand_chain");
}

}  // namespace

int main(int argc, char** argv) {
  std::printf("xsimd arch: %s\n", xsimd::default_arch::name());
  register_type<float>();
  register_type<double>();
  return run_benchmarks(argc, argv);
}
