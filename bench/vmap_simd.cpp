/// @file bench/vmap_simd.cpp
/// @brief vmap: `calx::vmap(calx::value_and_grad(f))` of Rosenbrock and Black-Scholes over
/// 1<<20 points, float and double, writing into preallocated columns with `.into(out)`, on 1
/// and 2 threads, against
///   (a) hand-written analytic derivatives with xsimd (load / compute / store over
///       xsimd::batch<T> of the native arch, scalar tail; xsimd::erfc, exp, log, sqrt), and
///   (b) the same hand-written derivatives in a plain scalar loop.
/// The hand-written xsimd code also runs on 2 threads, as the machine's reference speedup.
/// Prints `ratio=` lines: calx / xsimd on one thread, and the 1 -> 2 thread speedups.
///
///   bench_vmap_simd --benchmark_repetitions=10 --benchmark_enable_random_interleaving=true
#include "bench_common.hpp"
#include "functions.hpp"
#include "hand.hpp"

#include <calx/calx.hpp>

#include <xsimd/xsimd.hpp>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <span>
#include <string>
#include <thread>
#include <tuple>
#include <utility>

namespace {

using namespace calx_bench;

constexpr auto rosenbrock_vg = calx::value_and_grad(rosenbrock, calx::argnums<0, 1>);
constexpr auto black_scholes_vg = calx::value_and_grad(black_scholes, calx::argnums<0, 1, 2, 3, 4>);

template <class T>
const char* type_name() {
  return sizeof(T) == 4 ? "f32" : "f64";
}

/// Columns of one problem: `NI` inputs and `NO` = 1 + NI outputs (value, then the gradient),
/// each 64-byte aligned (calx::batched).
template <class T, std::size_t NI>
struct columns {
  static constexpr std::size_t inputs = NI, outputs = NI + 1;
  std::array<calx::batched<T>, NI> in;
  std::array<calx::batched<T>, NI + 1> out;
};

// ---- Rosenbrock ------------------------------------------------------------------------------

template <class T>
using rosenbrock_columns = columns<T, 2>;

template <class T>
rosenbrock_columns<T> make_rosenbrock() {
  rosenbrock_columns<T> c;
  fill_uniform(c.in[0], points, -2.0, 2.0, 11);
  fill_uniform(c.in[1], points, -1.0, 3.0, 12);
  for (auto& o : c.out) o.assign(points, T(0));
  return c;
}

template <class T>
void rosenbrock_calx(rosenbrock_columns<T>& c, unsigned threads) {
  std::pair<std::span<T>, std::tuple<std::span<T>, std::span<T>>> out{c.out[0], {c.out[1], c.out[2]}};
  calx::vmap(rosenbrock_vg).threads(threads).into(out)(c.in[0], c.in[1]);
}

template <class T, class V>
CALX_BENCH_INLINE void rosenbrock_point(const T* const* in, T* const* out, std::size_t i) {
  const V x = V::load_unaligned(in[0] + i), y = V::load_unaligned(in[1] + i);
  const auto r = rosenbrock_hand(x, y);
  r.value.store_unaligned(out[0] + i);
  r.dx.store_unaligned(out[1] + i);
  r.dy.store_unaligned(out[2] + i);
}

template <class T>
CALX_BENCH_INLINE void rosenbrock_scalar_point(const T* const* in, T* const* out, std::size_t i) {
  const auto r = rosenbrock_hand(in[0][i], in[1][i]);
  out[0][i] = r.value;
  out[1][i] = r.dx;
  out[2][i] = r.dy;
}

// ---- Black-Scholes ---------------------------------------------------------------------------

template <class T>
using black_scholes_columns = columns<T, 5>;

/// A book of options: strikes from deep in to deep out of the money, low to high volatility.
/// About 3.4% of the points have an erfc argument beyond +-5.5 (|d| > 7.8), so 24% of the
/// 8-lane and 43% of the 16-lane batches contain at least one such lane.
template <class T>
black_scholes_columns<T> make_black_scholes() {
  black_scholes_columns<T> c;
  fill_uniform(c.in[0], points, 50.0, 150.0, 13);  // S
  fill_uniform(c.in[1], points, 50.0, 150.0, 14);  // K
  fill_uniform(c.in[2], points, 0.1, 2.0, 15);     // T
  fill_uniform(c.in[3], points, 0.0, 0.08, 16);    // r
  fill_uniform(c.in[4], points, 0.05, 0.6, 17);    // sigma
  for (auto& o : c.out) o.assign(points, T(0));
  return c;
}

/// Near the money: K / S in [0.8, 1.25), sigma in [0.15, 0.5), T in [0.25, 2); every erfc
/// argument stays within +-5.5 (|d| <= 1.6).
template <class T>
black_scholes_columns<T> make_black_scholes_ntm() {
  black_scholes_columns<T> c = make_black_scholes<T>();
  fill_uniform(c.in[0], points, 90.0, 110.0, 23);
  std::vector<double> moneyness;
  fill_uniform(moneyness, points, 0.8, 1.25, 24);
  for (std::size_t i = 0; i < points; ++i) c.in[1][i] = static_cast<T>(c.in[0][i] * moneyness[i]);
  fill_uniform(c.in[2], points, 0.25, 2.0, 25);
  fill_uniform(c.in[4], points, 0.15, 0.5, 27);
  return c;
}

template <class T>
void black_scholes_calx(black_scholes_columns<T>& c, unsigned threads) {
  using S = std::span<T>;
  std::pair<S, std::tuple<S, S, S, S, S>> out{c.out[0], {c.out[1], c.out[2], c.out[3], c.out[4], c.out[5]}};
  calx::vmap(black_scholes_vg).threads(threads).into(out)(c.in[0], c.in[1], c.in[2], c.in[3], c.in[4]);
}

/// `Formula::f` is black_scholes_hand (closed form) or a black_scholes_chain (reverse mode).
template <class T, class V, class Formula>
CALX_BENCH_INLINE void black_scholes_point(const T* const* in, T* const* out, std::size_t i) {
  const auto r = Formula::f(V::load_unaligned(in[0] + i), V::load_unaligned(in[1] + i), V::load_unaligned(in[2] + i),
                      V::load_unaligned(in[3] + i), V::load_unaligned(in[4] + i));
  r.value.store_unaligned(out[0] + i);
  r.dS.store_unaligned(out[1] + i);
  r.dK.store_unaligned(out[2] + i);
  r.dT.store_unaligned(out[3] + i);
  r.dr.store_unaligned(out[4] + i);
  r.dsigma.store_unaligned(out[5] + i);
}

template <class T, class Formula>
CALX_BENCH_INLINE void black_scholes_scalar_point(const T* const* in, T* const* out, std::size_t i) {
  const auto r = Formula::f(in[0][i], in[1][i], in[2][i], in[3][i], in[4][i]);
  out[0][i] = r.value;
  out[1][i] = r.dS;
  out[2][i] = r.dK;
  out[3][i] = r.dT;
  out[4][i] = r.dr;
  out[5][i] = r.dsigma;
}

// ---- the hand-written loops ------------------------------------------------------------------

/// A hand-written loop body: `simd` on xsimd batches, `scalar` for the tail and the scalar
/// loop. Each problem has three: `closed` (closed-form derivatives), `chain` (the chain rule
/// as reverse mode runs it, xsimd's own math) and `chain_accurate` (the same with calx's
/// accurate SIMD erfc and log, what calx's generated code computes).
struct rosenbrock_kernels {
  template <class T, class V>
  static CALX_BENCH_INLINE void simd(const T* const* in, T* const* out, std::size_t i) {
    rosenbrock_point<T, V>(in, out, i);
  }
  template <class T>
  static CALX_BENCH_INLINE void scalar(const T* const* in, T* const* out, std::size_t i) {
    rosenbrock_scalar_point<T>(in, out, i);
  }
  // Rosenbrock's closed form is the chain rule, and it has no erfc or log.
  using chain = rosenbrock_kernels;
  using chain_accurate = rosenbrock_kernels;
};

template <class Formula>
struct black_scholes_variant {
  template <class T, class V>
  static CALX_BENCH_INLINE void simd(const T* const* in, T* const* out, std::size_t i) {
    black_scholes_point<T, V, Formula>(in, out, i);
  }
  template <class T>
  static CALX_BENCH_INLINE void scalar(const T* const* in, T* const* out, std::size_t i) {
    black_scholes_scalar_point<T, Formula>(in, out, i);
  }
};
struct closed_form {
  template <class W>
  static CALX_BENCH_INLINE auto f(const W& S, const W& K, const W& Tm, const W& r, const W& s) {
    return black_scholes_hand(S, K, Tm, r, s);
  }
};
template <class Math>
struct chain_rule {
  template <class W>
  static CALX_BENCH_INLINE auto f(const W& S, const W& K, const W& Tm, const W& r, const W& s) {
    return black_scholes_chain<W, Math>(S, K, Tm, r, s);
  }
};

struct black_scholes_kernels : black_scholes_variant<closed_form> {
  using chain = black_scholes_variant<chain_rule<library_math>>;
  using chain_accurate = black_scholes_variant<chain_rule<accurate_math>>;
};

/// Points [begin, end) with xsimd batches of the native arch; the tail (fewer than a batch)
/// with the scalar code.
template <class K, class T, std::size_t NI, std::size_t NO>
[[gnu::noinline]] void xsimd_loop(const std::array<const T*, NI>& in, const std::array<T*, NO>& out,
                                  std::size_t begin, std::size_t end) {
  using V = xsimd::batch<T>;
  constexpr std::size_t W = V::size;
  std::size_t i = begin;
  for (; i + W <= end; i += W) K::template simd<T, V>(in.data(), out.data(), i);
  for (; i < end; ++i) K::template scalar<T>(in.data(), out.data(), i);
}

template <class K, class T, std::size_t NI, std::size_t NO>
[[gnu::noinline]] void scalar_loop(const std::array<const T*, NI>& in, const std::array<T*, NO>& out,
                                   std::size_t begin, std::size_t end) {
  for (std::size_t i = begin; i < end; ++i) K::template scalar<T>(in.data(), out.data(), i);
}

template <class T, std::size_t NI>
auto pointers(columns<T, NI>& c) {
  std::array<const T*, NI> in{};
  std::array<T*, NI + 1> out{};
  for (std::size_t k = 0; k < NI; ++k) in[k] = c.in[k].data();
  for (std::size_t k = 0; k < NI + 1; ++k) out[k] = c.out[k].data();
  return std::pair{in, out};
}

/// The hand-written xsimd loop on `threads` threads (1 or 2), split at a batch boundary.
template <class K, class T, std::size_t NI>
void xsimd_run(columns<T, NI>& c, unsigned threads) {
  const auto ptrs = pointers(c);
  const auto& in = ptrs.first;
  const auto& out = ptrs.second;
  const std::size_t n = c.in[0].size();
  if (threads <= 1) {
    xsimd_loop<K>(in, out, 0, n);
  } else {
    constexpr std::size_t W = xsimd::batch<T>::size;
    const std::size_t mid = (n / 2) / W * W;
    std::jthread other([&ptrs, mid, n] { xsimd_loop<K>(ptrs.first, ptrs.second, mid, n); });
    xsimd_loop<K>(in, out, 0, mid);
  }
}

template <class K, class T, std::size_t NI>
void scalar_run(columns<T, NI>& c) {
  const auto [in, out] = pointers(c);
  scalar_loop<K>(in, out, 0, c.in[0].size());
}

// ---- checks and registration -----------------------------------------------------------------

enum class impl { calx, xsimd, chain, chain_accurate, scalar };

template <class T, std::size_t NI, class K, class CalxFn>
void run_impl(columns<T, NI>& c, impl which, unsigned threads, CalxFn calx_fn) {
  switch (which) {
    case impl::calx: calx_fn(c, threads); break;
    case impl::xsimd: xsimd_run<K>(c, threads); break;
    case impl::chain: xsimd_run<typename K::chain>(c, threads); break;
    case impl::chain_accurate: xsimd_run<typename K::chain_accurate>(c, threads); break;
    case impl::scalar: scalar_run<K>(c); break;
  }
}

/// Largest difference of calx's outputs from the hand-written ones, relative to max(|hand|, 1).
template <class T, std::size_t NI, class K, class CalxFn>
double check(columns<T, NI> c, CalxFn calx_fn, impl reference, std::size_t n) {
  for (auto& col : c.in) col.resize(n);  // an odd length exercises every tail
  for (auto& col : c.out) col.assign(n, T(0));
  columns<T, NI> h = c;
  run_impl<T, NI, K>(c, impl::calx, 2, calx_fn);
  run_impl<T, NI, K>(h, reference, 2, calx_fn);
  double e = 0;
  for (std::size_t k = 0; k < NI + 1; ++k) e = std::max(e, max_rel_diff(c.out[k], h.out[k], 1.0));
  return e;
}

template <class T, std::size_t NI, class K, class CalxFn>
void register_problem(const std::string& fn, columns<T, NI> (*make)(), CalxFn calx_fn) {
  // One data set per registration (a deque never moves its elements).
  static std::deque<columns<T, NI>> store;
  columns<T, NI>& data = store.emplace_back(make());
  const std::string base = "vmap/" + fn + "/" + type_name<T>() + "/";
  const double tol = sizeof(T) == 4 ? 1e-3 : 1e-9;
  for (impl ref : {impl::xsimd, impl::chain, impl::chain_accurate, impl::scalar}) {
    for (std::size_t n : {points, std::size_t{1000003}}) {
      const double e = check<T, NI, K>(data, calx_fn, ref, n);
      const char* names[] = {"calx", "xsimd", "chain", "chain_accurate", "scalar"};
      std::printf("check: %-24s calx vs hand %-14s n=%-8zu max difference %.3g\n", base.c_str(),
                  names[static_cast<int>(ref)], n, e);
      if (!(e <= tol)) std::exit(1);
    }
  }
  auto reg = [&](const std::string& name, impl which, unsigned threads) {
    benchmark::RegisterBenchmark((base + name).c_str(),
                                 [&data, which, threads, calx_fn](benchmark::State& state) {
                                   for (auto _ : state) {
                                     run_impl<T, NI, K>(data, which, threads, calx_fn);
                                     benchmark::DoNotOptimize(data.out[0].data());
                                     benchmark::ClobberMemory();
                                   }
                                   state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * points));
                                 })
        ->Unit(benchmark::kMillisecond)
        ->UseRealTime()
        ->ComputeStatistics("min", min_of);
  };
  reg("calx_t1", impl::calx, 1);
  reg("calx_t2", impl::calx, 2);
  reg("xsimd_t1", impl::xsimd, 1);
  reg("xsimd_t2", impl::xsimd, 2);
  reg("scalar_t1", impl::scalar, 1);
  if (fn != "rosenbrock") {
    reg("chain_t1", impl::chain, 1);
    reg("chain_accurate_t1", impl::chain_accurate, 1);
    compare(fn + " " + type_name<T>() + " calx_t1/chain_t1", base + "calx_t1", base + "chain_t1");
    compare(fn + " " + type_name<T>() + " calx_t1/chain_accurate_t1", base + "calx_t1", base + "chain_accurate_t1");
    compare(fn + " " + type_name<T>() + " chain_t1/closed_t1", base + "chain_t1", base + "xsimd_t1");
  }
  compare(fn + " " + type_name<T>() + " calx_t1/xsimd_t1", base + "calx_t1", base + "xsimd_t1");
  compare(fn + " " + type_name<T>() + " calx speedup t1/t2", base + "calx_t1", base + "calx_t2", false);
  compare(fn + " " + type_name<T>() + " xsimd speedup t1/t2", base + "xsimd_t1", base + "xsimd_t2", false);
  compare(fn + " " + type_name<T>() + " scalar_t1/calx_t1", base + "scalar_t1", base + "calx_t1");
}

}  // namespace

int main(int argc, char** argv) {
  std::printf("xsimd arch: %s (batch<float>: %zu lanes, batch<double>: %zu lanes), hardware threads: %u\n",
              xsimd::default_arch::name(), xsimd::batch<float>::size, xsimd::batch<double>::size,
              std::thread::hardware_concurrency());
  auto rosen = [](auto& c, unsigned t) { rosenbrock_calx(c, t); };
  auto bs = [](auto& c, unsigned t) { black_scholes_calx(c, t); };
  register_problem<float, 2, rosenbrock_kernels>("rosenbrock", make_rosenbrock<float>, rosen);
  register_problem<double, 2, rosenbrock_kernels>("rosenbrock", make_rosenbrock<double>, rosen);
  register_problem<float, 5, black_scholes_kernels>("black_scholes", make_black_scholes<float>, bs);
  register_problem<double, 5, black_scholes_kernels>("black_scholes", make_black_scholes<double>, bs);
  register_problem<float, 5, black_scholes_kernels>("black_scholes_ntm", make_black_scholes_ntm<float>, bs);
  register_problem<double, 5, black_scholes_kernels>("black_scholes_ntm", make_black_scholes_ntm<double>, bs);
  return run_benchmarks(argc, argv);
}
