/// @file bench/vmap_small.cpp
/// @brief vmap on small batches: the fixed cost of a call. `calx::vmap(value_and_grad(rosenbrock))`
/// over N = 16, 256, 4096 and 1<<20 points, f32 and f64, one thread, against the hand-written
/// xsimd loop over the same 64-byte aligned buffers:
///   - `into`: calx writes into preallocated columns (`.into(out)`), the hand loop too;
///   - `alloc`: calx allocates its result columns (the owning call), the hand loop allocates
///     the same three `calx::batched<T>` columns before its loop.
/// Prints `ratio=` calx / hand for each N.
///
///   bench_vmap_small --benchmark_repetitions=10 --benchmark_enable_random_interleaving=true
#include "bench_common.hpp"
#include "functions.hpp"
#include "hand.hpp"

#include <calx/calx.hpp>

#include <xsimd/xsimd.hpp>

#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <span>
#include <string>
#include <tuple>
#include <utility>

namespace {

using namespace calx_bench;

constexpr auto rosenbrock_vg = calx::value_and_grad(rosenbrock, calx::argnums<0, 1>);

template <class T>
struct problem {
  calx::batched<T> x, y, v, dx, dy;
};

template <class T>
problem<T> make(std::size_t n) {
  problem<T> p;
  fill_uniform(p.x, n, -2.0, 2.0, 31);
  fill_uniform(p.y, n, -1.0, 3.0, 32);
  p.v.assign(n, T(0));
  p.dx.assign(n, T(0));
  p.dy.assign(n, T(0));
  return p;
}

template <class T>
CALX_BENCH_INLINE void calx_into(problem<T>& p) {
  std::pair<std::span<T>, std::tuple<std::span<T>, std::span<T>>> out{p.v, {p.dx, p.dy}};
  calx::vmap(rosenbrock_vg).into(out)(p.x, p.y);
}

/// The hand-written loop: xsimd batches of the native arch, then a scalar tail.
template <class T>
CALX_BENCH_INLINE void hand_loop(const T* x, const T* y, T* v, T* dx, T* dy, std::size_t n) {
  using V = xsimd::batch<T>;
  std::size_t i = 0;
  for (; i + V::size <= n; i += V::size) {
    const auto r = rosenbrock_hand(V::load_unaligned(x + i), V::load_unaligned(y + i));
    r.value.store_unaligned(v + i);
    r.dx.store_unaligned(dx + i);
    r.dy.store_unaligned(dy + i);
  }
  for (; i < n; ++i) {
    const auto r = rosenbrock_hand(x[i], y[i]);
    v[i] = r.value;
    dx[i] = r.dx;
    dy[i] = r.dy;
  }
}

template <class T>
[[gnu::noinline]] void bm_calx_into(benchmark::State& state, problem<T>* p) {
  for (auto _ : state) {
    calx_into(*p);
    benchmark::DoNotOptimize(p->v.data());
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * p->x.size()));
}

template <class T>
[[gnu::noinline]] void bm_hand_into(benchmark::State& state, problem<T>* p) {
  for (auto _ : state) {
    hand_loop(p->x.data(), p->y.data(), p->v.data(), p->dx.data(), p->dy.data(), p->x.size());
    benchmark::DoNotOptimize(p->v.data());
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * p->x.size()));
}

template <class T>
[[gnu::noinline]] void bm_calx_alloc(benchmark::State& state, problem<T>* p) {
  for (auto _ : state) {
    auto r = calx::vmap(rosenbrock_vg)(p->x, p->y);
    benchmark::DoNotOptimize(r.first.data());
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * p->x.size()));
}

template <class T>
[[gnu::noinline]] void bm_hand_alloc(benchmark::State& state, problem<T>* p) {
  const std::size_t n = p->x.size();
  for (auto _ : state) {
    calx::batched<T> v(n), dx(n), dy(n);
    hand_loop(p->x.data(), p->y.data(), v.data(), dx.data(), dy.data(), n);
    benchmark::DoNotOptimize(v.data());
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * n));
}

template <class T>
const char* type_name() {
  return sizeof(T) == 4 ? "f32" : "f64";
}

template <class T>
void register_size(std::size_t n) {
  static std::deque<problem<T>> store;  // a deque never moves its elements
  problem<T>& p = store.emplace_back(make<T>(n));
  // calx and the hand loop agree before anything is timed.
  problem<T> h = p;
  calx_into(p);
  hand_loop(h.x.data(), h.y.data(), h.v.data(), h.dx.data(), h.dy.data(), n);
  // Relative to max(|hand|, 1): the two may contract different products into FMAs.
  const double e =
      std::max({max_rel_diff(p.v, h.v, 1.0), max_rel_diff(p.dx, h.dx, 1.0), max_rel_diff(p.dy, h.dy, 1.0)});
  if (!(e <= (sizeof(T) == 4 ? 1e-4 : 1e-12))) {
    std::printf("check failed: n=%zu difference %.3g\n", n, e);
    std::exit(1);
  }
  const std::string base = std::string("vmap_small/") + type_name<T>() + "/" + std::to_string(n) + "/";
  auto reg = [&](const std::string& name, void (*fn)(benchmark::State&, problem<T>*)) {
    benchmark::RegisterBenchmark((base + name).c_str(), fn, &p)->ComputeStatistics("min", min_of);
  };
  reg("calx_into", bm_calx_into<T>);
  reg("hand_into", bm_hand_into<T>);
  reg("calx_alloc", bm_calx_alloc<T>);
  reg("hand_alloc", bm_hand_alloc<T>);
  const std::string label = std::string(type_name<T>()) + " N=" + std::to_string(n);
  compare(label + " into calx/hand", base + "calx_into", base + "hand_into");
  compare(label + " alloc calx/hand", base + "calx_alloc", base + "hand_alloc");
}

}  // namespace

int main(int argc, char** argv) {
  std::printf("xsimd arch: %s\n", xsimd::default_arch::name());
  for (std::size_t n : {std::size_t{16}, std::size_t{256}, std::size_t{4096}, points}) {
    register_size<float>(n);
    register_size<double>(n);
  }
  return run_benchmarks(argc, argv);
}
