/// @file bench/kmeans.cpp
/// @brief GradBench's kmeans objective (k = 10 centroids, n = 1000 points, d = 8) written
/// the way NumPy users write it, every point against every centroid by broadcasting
/// (1000 x 10 x 8 elements that fusion never writes out), against the same math as a
/// `vmap` over the points and against hand-written xsimd code in the same binary and run,
/// one thread (issue 26, "Benchmarks": within 1.3x of the `vmap` form):
///   - `cost`: the sum over points of the squared distance to the nearest centroid;
///   - `grad`: the cost and its gradient with respect to the centroids (`value_and_grad`).
/// The hand code holds the centroids transposed (one SIMD batch across centroids per
/// coordinate), finds each point's nearest with one horizontal min, and for the gradient
/// adds 2 (c - p) to that centroid's row. GradBench's `manual` tool (scalar C++, g++ 12 -O3
/// -march=native, this kind of machine) takes 21.4 us for the cost and 25.6 us for `dir`
/// (the gradient and the Hessian's diagonal): ../shared/gradbench-data/instances/kmeans.json.
/// f32 and f64. Prints `ratio=` calx / hand and broadcast / vmap.
///
///   bench_kmeans --benchmark_repetitions=10 --benchmark_enable_random_interleaving=true
#include "bench_common.hpp"

#include <calx/calx.hpp>

#include <xsimd/xsimd.hpp>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <limits>
#include <string>
#include <vector>

namespace {

using namespace calx_bench;

constexpr std::size_t kn = 1000, kk = 10, kd = 8;

/// Every point against every centroid: (n, 1, d) - (1, k, d) broadcast to (n, k, d).
constexpr auto cost = [](const auto& points, const auto& centroids) {
  const auto d = calx::reshape<kn, 1, kd>(points) - calx::reshape<1, kk, kd>(centroids);
  return calx::sum(calx::min(calx::sum(d * d, calx::axis<2>), calx::axis<1>));
};

/// The same over a batch of points, one point a sample (docs/vmap.md).
constexpr auto nearest = [](const auto& p, const auto& c) {
  const auto d = c - p;
  return calx::min(calx::sum(d * d, calx::axis<1>));
};
constexpr auto cost_vmap = [](const auto& ps, const auto& c) {
  return calx::sum(calx::vmap(nearest, calx::in_axes<0, calx::none>)(ps, c));
};

template <class T>
struct problem {
  calx::tensor<T, kn, kd> points;
  std::vector<calx::tensor<T, kd>> cloud;  // the same points, one tensor each
  calx::tensor<T, kk, kd> centroids, g;
  T value = 0;
};

template <class T>
problem<T> make_problem() {
  problem<T> q;
  std::vector<T> v;
  fill_uniform(v, (kn + kk) * kd, 0.0, 1.0, 41);
  q.cloud.resize(kn);
  for (std::size_t i = 0; i < kn; ++i)
    for (std::size_t j = 0; j < kd; ++j) q.cloud[i][j] = q.points.data()[i * kd + j] = v[i * kd + j];
  for (std::size_t c = 0; c < kk; ++c)
    for (std::size_t j = 0; j < kd; ++j) q.centroids.data()[c * kd + j] = v[(kn + c) * kd + j];
  return q;
}

template <class T>
[[gnu::noinline]] void calx_cost(problem<T>& q) {
  q.value = calx::trace(cost, q.points, q.centroids)(q.points, q.centroids);
}

template <class T>
[[gnu::noinline]] void calx_grad(problem<T>& q) {
  const auto [v, g] = calx::value_and_grad(cost, calx::argnums<1>)(q.points, q.centroids);
  q.value = v;
  q.g = g;
}

template <class T>
[[gnu::noinline]] void vmap_cost(problem<T>& q) {
  q.value = cost_vmap(q.cloud, q.centroids);
}

template <class T>
[[gnu::noinline]] void vmap_grad(problem<T>& q) {
  const auto [v, g] = calx::value_and_grad(cost_vmap, calx::argnums<1>)(q.cloud, q.centroids);
  q.value = v;
  q.g = g;
}

/// The centroids transposed, `ct[j * K + c]`, K = k rounded up to whole SIMD batches; the
/// padding centroids lie far away (their distances are +inf or huge), so no point picks them.
template <class T>
struct transposed {
  using B = xsimd::batch<T>;
  static constexpr std::size_t W = B::size, K = (kk + W - 1) / W * W, nb = K / W;
  alignas(64) T ct[kd * K];
  explicit transposed(const calx::tensor<T, kk, kd>& c) {
    for (std::size_t j = 0; j < kd; ++j)
      for (std::size_t k = 0; k < K; ++k) ct[j * K + k] = k < kk ? c.data()[k * kd + j] : T(1e30);
  }
  /// The least lane of `m` (this xsimd has no reduce_min).
  static T lane_min(const B& m) {
    alignas(64) T l[W];
    m.store_aligned(l);
    T r = l[0];
    for (std::size_t i = 1; i < W; ++i) r = std::min(r, l[i]);
    return r;
  }
  /// Squared distances of point p to every centroid, `nb` batches.
  CALX_INLINE void distances(const T* p, B* d2) const {
#pragma GCC unroll 4
    for (std::size_t b = 0; b < nb; ++b) d2[b] = B(T(0));
#pragma GCC unroll 8
    for (std::size_t j = 0; j < kd; ++j) {
      const B pj(p[j]);
#pragma GCC unroll 4
      for (std::size_t b = 0; b < nb; ++b) {
        const B d = B::load_aligned(ct + j * K + b * W) - pj;
        d2[b] = xsimd::fma(d, d, d2[b]);
      }
    }
  }
};

template <class T>
[[gnu::noinline]] void hand_cost(problem<T>& q) {
  using tr = transposed<T>;
  const tr c(q.centroids);
  T total = 0;
  for (std::size_t i = 0; i < kn; ++i) {
    typename tr::B d2[tr::nb];
    c.distances(q.points.data() + i * kd, d2);
    typename tr::B m = d2[0];
    for (std::size_t b = 1; b < tr::nb; ++b) m = xsimd::min(m, d2[b]);
    total += tr::lane_min(m);
  }
  q.value = total;
}

template <class T>
[[gnu::noinline]] void hand_grad(problem<T>& q) {
  using tr = transposed<T>;
  using B = xsimd::batch<T>;
  const tr c(q.centroids);
  T total = 0;
  alignas(64) T g[kk * kd] = {};
  for (std::size_t i = 0; i < kn; ++i) {
    const T* p = q.points.data() + i * kd;
    alignas(64) B d2[tr::nb];
    c.distances(p, d2);
    B m = d2[0];
    for (std::size_t b = 1; b < tr::nb; ++b) m = xsimd::min(m, d2[b]);
    const T best = tr::lane_min(m);
    total += best;
    alignas(64) T lanes[tr::nb * tr::W];
    for (std::size_t b = 0; b < tr::nb; ++b) d2[b].store_aligned(lanes + b * tr::W);
    std::size_t k = 0;
    while (lanes[k] != best) ++k;
    // d/dc |p - c|^2 = 2 (c - p), on the nearest centroid's row: whole batches where a row
    // holds them, else a loop (AVX-512 f32: a batch of 16 is wider than the row of 8, and
    // the batch loads read past it, misaligned).
    if constexpr (tr::W <= kd) {
      for (std::size_t j = 0; j < kd; j += tr::W) {
        const B cj = B::load_unaligned(q.centroids.data() + k * kd + j), pj = B::load_unaligned(p + j);
        (B::load_aligned(g + k * kd + j) + T(2) * (cj - pj)).store_aligned(g + k * kd + j);
      }
    } else {
      for (std::size_t j = 0; j < kd; ++j) g[k * kd + j] += T(2) * (q.centroids.data()[k * kd + j] - p[j]);
    }
  }
  q.value = total;
  std::copy(g, g + kk * kd, q.g.data());
}

template <class T>
void check(problem<T>& q) {
  problem<T> a = q, b = q, v = q;
  calx_grad(a);
  hand_grad(b);
  vmap_grad(v);
  calx_cost(q);
  const double tol = sizeof(T) == 4 ? 1e-4 : 1e-11;  // the same sums in other orders
  double e = std::abs(double(a.value) - double(b.value)) / std::abs(double(b.value));
  e = std::max(e, std::abs(double(q.value) - double(b.value)) / std::abs(double(b.value)));
  e = std::max(e, std::abs(double(v.value) - double(b.value)) / std::abs(double(b.value)));
  for (std::size_t k = 0; k < kk * kd; ++k) {
    e = std::max(e, std::abs(double(a.g.data()[k]) - double(b.g.data()[k])) / std::max(1.0, std::abs(double(b.g.data()[k]))));
    e = std::max(e, std::abs(double(v.g.data()[k]) - double(b.g.data()[k])) / std::max(1.0, std::abs(double(b.g.data()[k]))));
  }
  if (!(e <= tol)) {
    std::printf("check failed (kmeans %s): %.3g; values %g %g %g %g; g[0] %g %g %g\n", type_name<T>(), e, double(a.value),
                double(b.value), double(q.value), double(v.value), double(a.g.data()[0]), double(b.g.data()[0]),
                double(v.g.data()[0]));
    std::exit(1);
  }
}

/// With CALX_BENCH_DUMP=<folder>, the inputs and calx's results (the broadcast form), as a
/// raw array of T in this order, for bench/peers/kmeans.py to run JAX on the same numbers and
/// check it against calx: kmeans_<t>.bin: points (1000 x 8), centroids (10 x 8), the cost
/// (calx::trace), then value_and_grad's value and gradient in the centroids (10 x 8).
template <class T>
void dump(const char* folder, const problem<T>& q0) {
  problem<T> a = q0, b = q0;
  calx_cost(a);
  calx_grad(b);
  write_numbers<T>(std::string(folder) + "/kmeans_" + type_name<T>() + ".bin", [&](std::vector<T>& v) {
    v.insert(v.end(), q0.points.data(), q0.points.data() + kn * kd);
    v.insert(v.end(), q0.centroids.data(), q0.centroids.data() + kk * kd);
    v.push_back(a.value);
    v.push_back(b.value);
    v.insert(v.end(), b.g.data(), b.g.data() + kk * kd);
  });
}

template <class T>
void register_type() {
  static std::deque<problem<T>> qs;
  problem<T>& q = qs.emplace_back(make_problem<T>());
  check(q);
  if (const char* folder = std::getenv("CALX_BENCH_DUMP")) dump<T>(folder, q);
  const std::string t = type_name<T>(), b = "kmeans/" + t + "/";
  auto reg = [&](std::string name, auto fn) {
    benchmark::RegisterBenchmark(name.c_str(), fn, &q)->ComputeStatistics("min", min_of);
  };
  reg(b + "calx_cost", bm<problem<T>, &calx_cost<T>>);
  reg(b + "vmap_cost", bm<problem<T>, &vmap_cost<T>>);
  reg(b + "hand_cost", bm<problem<T>, &hand_cost<T>>);
  reg(b + "calx_grad", bm<problem<T>, &calx_grad<T>>);
  reg(b + "vmap_grad", bm<problem<T>, &vmap_grad<T>>);
  reg(b + "hand_grad", bm<problem<T>, &hand_grad<T>>);
  compare(t + " kmeans cost, broadcast / hand", b + "calx_cost", b + "hand_cost");
  compare(t + " kmeans cost, broadcast / vmap", b + "calx_cost", b + "vmap_cost");
  compare(t + " kmeans value and gradient, broadcast / hand", b + "calx_grad", b + "hand_grad");
  compare(t + " kmeans value and gradient, broadcast / vmap", b + "calx_grad", b + "vmap_grad");
}

}  // namespace

int main(int argc, char** argv) {
  std::printf("xsimd arch: %s\n", xsimd::default_arch::name());
  register_type<float>();
  register_type<double>();
  return run_benchmarks(argc, argv);
}
