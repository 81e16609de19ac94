/// @file bench/tensors.cpp
/// @brief Tensor programs against hand-written code in the same binary and run, one thread:
///   - `mlp`: per-sample gradients of issue 9's MLP (16 -> 32 -> 1, tanh, squared error; 577
///     parameters) over 4096 samples, `calx::vmap(calx::grad(loss), in_axes<none, 0, 0>)`
///     into a preallocated std::vector of parameter structs, against two hand-written
///     analytic per-sample gradients with xsimd, one sample per lane, reading and writing
///     the same buffers (samples as an array of structs): `hand` stores each result lane by
///     lane as it is computed, `hand_rows` (the faster, 2x in f32) writes each sample's
///     structure in address order, w1's gradient as rows dz_i x of full SIMD width;
///   - `least_squares`: the gradient with respect to x of |A x - b|^2 for one sample, A of
///     N x N at N = 48, 256 and 1024, `calx::grad` against two hand-written xsimd codes:
///     `hand` reads A twice (r = A x - b by rows, g = 2 A^T r as row axpys into register
///     blocks: A is never walked down a column), `hand_one_pass` once (each block of rows
///     gives its residuals and is added into g while in L1), the faster one once A leaves
///     the cache.
/// f32 and f64. Prints `ratio=` calx / each hand code (target <= 1.10 against the faster).
///
///   bench_tensors --benchmark_repetitions=10 --benchmark_enable_random_interleaving=true
#include "bench_common.hpp"
#include "hand.hpp"

#include <calx/calx.hpp>

#include <xsimd/xsimd.hpp>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <iterator>
#include <memory>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

// Issue 9's parameters, once per precision (a non-template struct each, as users write them).
struct mlp32 {
  BOOST_HANA_DEFINE_STRUCT(mlp32, (calx::tensor<float, 32, 16>, w1), (calx::tensor<float, 32>, b1),
                           (calx::tensor<float, 1, 32>, w2), (calx::tensor<float, 1>, b2));
};
struct mlp64 {
  BOOST_HANA_DEFINE_STRUCT(mlp64, (calx::tensor<double, 32, 16>, w1), (calx::tensor<double, 32>, b1),
                           (calx::tensor<double, 1, 32>, w2), (calx::tensor<double, 1>, b2));
};

namespace {

using namespace calx_bench;

template <class T>
using params_t = std::conditional_t<sizeof(T) == 4, mlp32, mlp64>;
template <class T>
using input_t = calx::tensor<T, 16>;

constexpr auto loss = [](const auto& p, const auto& x, const auto& y) {
  auto h = calx::tanh(calx::matvec(p.w1, x) + p.b1);
  auto d = (calx::matvec(p.w2, h) + p.b2)(0) - y;
  return d * d;
};

constexpr std::size_t samples = 4096;

template <class T>
struct mlp_problem {
  params_t<T> p;
  std::vector<input_t<T>> xs;
  std::vector<T> ys;
  std::vector<params_t<T>> grads;
};

template <class T>
mlp_problem<T> make_mlp() {
  mlp_problem<T> m;
  std::vector<T> v;
  fill_uniform(v, 577, -0.4, 0.4, 7);
  std::size_t k = 0;
  for (std::size_t e = 0; e < 512; ++e) m.p.w1[e] = v[k++];
  for (std::size_t e = 0; e < 32; ++e) m.p.b1[e] = v[k++];
  for (std::size_t e = 0; e < 32; ++e) m.p.w2[e] = v[k++];
  m.p.b2[0] = v[k++];
  std::vector<T> xv;
  fill_uniform(xv, samples * 16, -1.0, 1.0, 8);
  m.xs.resize(samples);
  for (std::size_t i = 0; i < samples; ++i)
    for (std::size_t e = 0; e < 16; ++e) m.xs[i][e] = xv[i * 16 + e];
  fill_uniform(m.ys, samples, -1.0, 1.0, 9);
  m.grads.resize(samples);
  return m;
}

template <class T>
CALX_BENCH_INLINE void calx_mlp(mlp_problem<T>& m) {
  calx::vmap(calx::grad(loss), calx::in_axes<calx::none, 0, 0>).into(m.grads)(m.p, m.xs, m.ys);
}

/// Samples [s, s + W) of x into lanes (strided: the samples are an array of tensors); returns
/// their y.
template <class T, class B>
CALX_BENCH_INLINE B load_lanes(const mlp_problem<T>& m, std::size_t s, B* x) {
  constexpr std::size_t W = B::size;
  alignas(64) T lane[W];
  for (std::size_t j = 0; j < 16; ++j) {
    for (std::size_t l = 0; l < W; ++l) lane[l] = m.xs[s + l][j];
    x[j] = B::load_aligned(lane);
  }
  for (std::size_t l = 0; l < W; ++l) lane[l] = m.ys[s + l];
  return B::load_aligned(lane);
}

/// Hand-written reverse mode, W samples at a time (one per lane).
template <class T>
[[gnu::noinline]] void hand_mlp(mlp_problem<T>& m) {
  using B = xsimd::batch<T>;
  constexpr std::size_t W = B::size;
  static_assert(samples % W == 0);
  const params_t<T>& p = m.p;
  alignas(64) T lane[W];
  for (std::size_t s = 0; s < samples; s += W) {
    B x[16];
    const B y = load_lanes(m, s, x);
    B h[32];
    B out(p.b2[0]);
    for (std::size_t i = 0; i < 32; ++i) {
      B z(p.b1[i]);
      for (std::size_t j = 0; j < 16; ++j) z = xsimd::fma(B(p.w1[i * 16 + j]), x[j], z);
      h[i] = xsimd::tanh(z);
      out = xsimd::fma(B(p.w2[i]), h[i], out);
    }
    const B d = B(T(2)) * (out - y);
    auto store = [&](const B& v, auto member) {
      v.store_aligned(lane);
      for (std::size_t l = 0; l < W; ++l) member(m.grads[s + l]) = lane[l];
    };
    store(d, [](params_t<T>& g) -> T& { return g.b2[0]; });
    for (std::size_t i = 0; i < 32; ++i) {
      store(d * h[i], [i](params_t<T>& g) -> T& { return g.w2[i]; });
      const B dz = d * B(p.w2[i]) * (B(T(1)) - h[i] * h[i]);
      store(dz, [i](params_t<T>& g) -> T& { return g.b1[i]; });
      for (std::size_t j = 0; j < 16; ++j) store(dz * x[j], [i, j](params_t<T>& g) -> T& { return g.w1[i * 16 + j]; });
    }
  }
}

/// Hand-written reverse mode, the forward and dz one sample per lane, the gradients written
/// sample by sample: w1's gradient (the outer product dz x^T) as rows dz_i x of full SIMD
/// width from the sample's contiguous x, so that its 512 numbers go out in whole vectors
/// rather than lane by lane (as XLA's batched outer product writes them).
template <class T>
[[gnu::noinline]] void hand_mlp_rows(mlp_problem<T>& m) {
  using B = xsimd::batch<T>;
  constexpr std::size_t W = B::size;
  static_assert(samples % W == 0 && 16 % W == 0);
  const params_t<T>& p = m.p;
  alignas(64) T dzl[32][W], hl[32][W], dl[W];
  for (std::size_t s = 0; s < samples; s += W) {
    B x[16];
    const B y = load_lanes(m, s, x);
    B h[32];
    B out(p.b2[0]);
    for (std::size_t i = 0; i < 32; i += 4) {  // four independent sums, not one chain
      B z[4] = {B(p.b1[i]), B(p.b1[i + 1]), B(p.b1[i + 2]), B(p.b1[i + 3])};
      for (std::size_t j = 0; j < 16; ++j)
        for (std::size_t k = 0; k < 4; ++k) z[k] = xsimd::fma(B(p.w1[(i + k) * 16 + j]), x[j], z[k]);
      for (std::size_t k = 0; k < 4; ++k) {
        h[i + k] = xsimd::tanh(z[k]);
        out = xsimd::fma(B(p.w2[i + k]), h[i + k], out);
      }
    }
    const B d = B(T(2)) * (out - y);
    d.store_aligned(dl);
    for (std::size_t i = 0; i < 32; ++i) {
      (d * h[i]).store_aligned(hl[i]);
      (d * B(p.w2[i]) * (B(T(1)) - h[i] * h[i])).store_aligned(dzl[i]);
    }
    for (std::size_t l = 0; l < W; ++l) {  // in address order: the memory system streams it
      params_t<T>& g = m.grads[s + l];
      B xr[16 / W];
      for (std::size_t k = 0; k < 16 / W; ++k) xr[k] = B::load_unaligned(&m.xs[s + l][k * W]);
      for (std::size_t i = 0; i < 32; ++i) {
        const B dz(dzl[i][l]);
        for (std::size_t k = 0; k < 16 / W; ++k) (dz * xr[k]).store_unaligned(&g.w1[i * 16 + k * W]);
      }
      for (std::size_t i = 0; i < 32; ++i) g.b1[i] = dzl[i][l];
      for (std::size_t i = 0; i < 32; ++i) g.w2[i] = hl[i][l];
      g.b2[0] = dl[l];
    }
  }
}

// ---- least squares ----------------------------------------------------------------------

/// The sizes of A (N x N) measured, in one binary: A in L1/L2 (48), in L2 (256: 256 KiB in
/// f32, 512 KiB in f64), and in L3 or memory (1024: 4 and 8 MiB), where reading A once
/// instead of twice is what the best hand code does.
constexpr std::size_t ls_sizes[] = {48, 256, 1024};

constexpr auto least_squares = [](const auto& a, const auto& x, const auto& b) {
  const auto r = calx::matvec(a, x) - b;
  return calx::dot(r, r);
};

/// On the heap: at N = 1024 A is 8 MiB (f64), the size of a thread's whole stack.
template <class T, std::size_t N>
struct ls_problem {
  calx::tensor<T, N, N> a;
  calx::tensor<T, N> x, b, g;
};

template <class T, std::size_t N>
std::unique_ptr<ls_problem<T, N>> make_ls() {
  auto q = std::make_unique<ls_problem<T, N>>();
  std::vector<T> v;
  fill_uniform(v, N * N + 2 * N, -1.0, 1.0, 11);
  for (std::size_t e = 0; e < N * N; ++e) q->a[e] = v[e];
  for (std::size_t e = 0; e < N; ++e) {
    q->x[e] = v[N * N + e];
    q->b[e] = v[N * N + N + e];
  }
  return q;
}

template <class T, std::size_t N>
[[gnu::noinline]] void calx_ls(ls_problem<T, N>& q) {
  q.g = calx::grad(least_squares, calx::argnums<1>)(q.a, q.x, q.b);
}

/// The residuals of four consecutive rows of A (N wide), r[k] = A_k x - b_k: dot products
/// sharing each load of x. Written out register by register: with the accumulators in an
/// array g++ kept them in memory (the 256 x 256 gradient 5.0 -> 5.8 us).
template <class T, std::size_t N>
CALX_BENCH_INLINE void residuals_of_four(const T* row, const T* x, const T* b, T* r) {
  using B = xsimd::batch<T>;
  constexpr std::size_t W = B::size, full = N / W * W;
  B s0(T(0)), s1(T(0)), s2(T(0)), s3(T(0));
  std::size_t j = 0;
  for (; j < full; j += W) {
    const B xv = B::load_unaligned(x + j);
    s0 = xsimd::fma(B::load_unaligned(row + j), xv, s0);
    s1 = xsimd::fma(B::load_unaligned(row + N + j), xv, s1);
    s2 = xsimd::fma(B::load_unaligned(row + 2 * N + j), xv, s2);
    s3 = xsimd::fma(B::load_unaligned(row + 3 * N + j), xv, s3);
  }
  T t[4] = {xsimd::hadd(s0), xsimd::hadd(s1), xsimd::hadd(s2), xsimd::hadd(s3)};
  for (; j < N; ++j)
    for (std::size_t k = 0; k < 4; ++k) t[k] += row[k * N + j] * x[j];
  for (std::size_t k = 0; k < 4; ++k) r[k] = t[k] - b[k];
}

/// The residual of one row: r = A_i x - b_i.
template <class T, std::size_t N>
CALX_BENCH_INLINE T residual_of_row(const T* row, const T* x, T b) {
  using B = xsimd::batch<T>;
  constexpr std::size_t W = B::size, full = N / W * W;
  B s0(T(0));
  std::size_t j = 0;
  for (; j < full; j += W) s0 = xsimd::fma(B::load_unaligned(row + j), B::load_unaligned(x + j), s0);
  T s = xsimd::hadd(s0);
  for (; j < N; ++j) s += row[j] * x[j];
  return s - b;
}

/// The best two-pass hand code we could write, with xsimd: r = A x - b as dot products of
/// A's rows, four rows at a time sharing each load of x, then g = 2 A^T r as axpys of A's
/// rows into register blocks of g (A read along its rows again, never down a column). The
/// faster one while A stays in cache: g's blocks live in registers.
template <class T, std::size_t N>
[[gnu::noinline]] void hand_ls(ls_problem<T, N>& q) {
  using B = xsimd::batch<T>;
  constexpr std::size_t W = B::size, full = N / W * W;
  const T* a = q.a.data();
  alignas(64) T r[N];
  constexpr std::size_t blocked = N / 4 * 4;  // constant bounds: g++ then sees every index in range
  for (std::size_t i = 0; i < blocked; i += 4) residuals_of_four<T, N>(a + i * N, q.x.data(), q.b.data() + i, r + i);
  for (std::size_t i = blocked; i < N; ++i) r[i] = residual_of_row<T, N>(a + i * N, q.x.data(), q.b[i]);
  constexpr std::size_t block = 4 * W;  // columns of g kept in registers while A's rows stream by
  std::size_t j = 0;
  for (; j + block <= full; j += block) {
    B g0(T(0)), g1(T(0)), g2(T(0)), g3(T(0));
    for (std::size_t i = 0; i < N; ++i) {
      const B ri(r[i]);
      const T* row = a + i * N + j;
      g0 = xsimd::fma(B::load_unaligned(row), ri, g0);
      g1 = xsimd::fma(B::load_unaligned(row + W), ri, g1);
      g2 = xsimd::fma(B::load_unaligned(row + 2 * W), ri, g2);
      g3 = xsimd::fma(B::load_unaligned(row + 3 * W), ri, g3);
    }
    (g0 + g0).store_unaligned(q.g.data() + j);
    (g1 + g1).store_unaligned(q.g.data() + j + W);
    (g2 + g2).store_unaligned(q.g.data() + j + 2 * W);
    (g3 + g3).store_unaligned(q.g.data() + j + 3 * W);
  }
  for (; j < full; j += W) {
    B g0(T(0));
    for (std::size_t i = 0; i < N; ++i) g0 = xsimd::fma(B::load_unaligned(a + i * N + j), B(r[i]), g0);
    (g0 + g0).store_unaligned(q.g.data() + j);
  }
  for (; j < N; ++j) {
    T s = 0;
    for (std::size_t i = 0; i < N; ++i) s += a[i * N + j] * r[i];
    q.g[j] = 2 * s;
  }
}

/// The best one-pass hand code: each block of four rows of A gives its four residuals and is
/// added into g (2 r_k A_k) while it is still in L1, so A comes from memory once, not twice;
/// g (N numbers) stays in L1. The faster one once A no longer fits in the cache.
template <class T, std::size_t N>
[[gnu::noinline]] void hand_ls_one_pass(ls_problem<T, N>& q) {
  using B = xsimd::batch<T>;
  constexpr std::size_t W = B::size, full = N / W * W;
  const T* a = q.a.data();
  T* g = q.g.data();
  std::fill(g, g + N, T(0));
  constexpr std::size_t blocked = N / 4 * 4;
  for (std::size_t i = 0; i < blocked; i += 4) {
    const T* row = a + i * N;
    T r[4];
    residuals_of_four<T, N>(row, q.x.data(), q.b.data() + i, r);
    const B r0(2 * r[0]), r1(2 * r[1]), r2(2 * r[2]), r3(2 * r[3]);
    std::size_t j = 0;
    for (; j < full; j += W) {
      B gj = B::load_unaligned(g + j);
      gj = xsimd::fma(B::load_unaligned(row + j), r0, gj);
      gj = xsimd::fma(B::load_unaligned(row + N + j), r1, gj);
      gj = xsimd::fma(B::load_unaligned(row + 2 * N + j), r2, gj);
      gj = xsimd::fma(B::load_unaligned(row + 3 * N + j), r3, gj);
      gj.store_unaligned(g + j);
    }
    for (; j < N; ++j)
      for (std::size_t k = 0; k < 4; ++k) g[j] += row[k * N + j] * (2 * r[k]);
  }
  for (std::size_t i = blocked; i < N; ++i) {
    const T* row = a + i * N;
    const T r = 2 * residual_of_row<T, N>(row, q.x.data(), q.b[i]);
    std::size_t j = 0;
    for (; j < full; j += W) (B::load_unaligned(g + j) + B::load_unaligned(row + j) * B(r)).store_unaligned(g + j);
    for (; j < N; ++j) g[j] += row[j] * r;
  }
}

template <class T>
double max_rel(const params_t<T>& a, const params_t<T>& b) {
  double e = 0;
  auto one = [&](const auto& u, const auto& v) {
    for (std::size_t k = 0; k < u.size; ++k) e = std::max(e, std::abs(double(u[k]) - double(v[k])) / (1 + std::abs(double(v[k]))));
  };
  one(a.w1, b.w1);
  one(a.b1, b.b1);
  one(a.w2, b.w2);
  one(a.b2, b.b2);
  return e;
}

/// With CALX_BENCH_DUMP=<folder>, the inputs and calx's results, as raw arrays of T in this
/// order, for bench/peers/ to run JAX on the same numbers and check it against calx:
/// mlp_<t>.bin: w1 (32 x 16), b1, w2, b2, xs (4096 x 16), ys, then the 4096 gradients
/// (w1, b1, w2, b2 each); ls<N>_<t>.bin: A (N x N), x, b, then the gradient.
template <class T>
void dump_mlp(const char* folder, const mlp_problem<T>& m0) {
  mlp_problem<T> m = m0;
  calx_mlp(m);
  const auto params = [](std::vector<T>& v, const params_t<T>& p) {
    v.insert(v.end(), p.w1.data(), p.w1.data() + p.w1.size);
    v.insert(v.end(), p.b1.data(), p.b1.data() + p.b1.size);
    v.insert(v.end(), p.w2.data(), p.w2.data() + p.w2.size);
    v.insert(v.end(), p.b2.data(), p.b2.data() + p.b2.size);
  };
  write_numbers<T>(std::string(folder) + "/mlp_" + type_name<T>() + ".bin", [&](std::vector<T>& v) {
    params(v, m.p);
    for (const auto& x : m.xs) v.insert(v.end(), x.data(), x.data() + x.size);
    v.insert(v.end(), m.ys.begin(), m.ys.end());
    for (const auto& g : m.grads) params(v, g);
  });
}

template <class T, std::size_t N>
void dump_ls(const char* folder, const ls_problem<T, N>& q0) {
  auto q = std::make_unique<ls_problem<T, N>>(q0);
  calx_ls(*q);
  write_numbers<T>(std::string(folder) + "/ls" + std::to_string(N) + "_" + type_name<T>() + ".bin",
                   [&](std::vector<T>& v) {
                     v.insert(v.end(), q->a.data(), q->a.data() + N * N);
                     for (const auto* a : {&q->x, &q->b, &q->g}) v.insert(v.end(), a->data(), a->data() + N);
                   });
}

template <class P>
void reg(const std::string& name, void (*fn)(benchmark::State&, P*), P* p) {
  benchmark::RegisterBenchmark(name.c_str(), fn, p)->ComputeStatistics("min", min_of);
}

/// The least-squares gradient at one size: calx, both hand codes, checked against each other.
template <class T, std::size_t N>
void register_ls() {
  static std::deque<std::unique_ptr<ls_problem<T, N>>> problems;
  ls_problem<T, N>& q = *problems.emplace_back(make_ls<T, N>());
  const double tol = sizeof(T) == 4 ? 2e-5 : 1e-12;
  using P = ls_problem<T, N>;
  auto c = std::make_unique<P>(q), d = std::make_unique<P>(q), e = std::make_unique<P>(q);
  calx_ls(*c);
  hand_ls(*d);
  hand_ls_one_pass(*e);
  for (std::size_t k = 0; k < N; ++k)
    for (const P* h : {d.get(), e.get()})
      if (!(std::abs(double(c->g[k]) - double(h->g[k])) <= tol * (1 + std::abs(double(h->g[k]))) * N)) {
        std::printf("check failed (least squares %zu %s)\n", N, type_name<T>());
        std::exit(1);
      }
  if (const char* folder = std::getenv("CALX_BENCH_DUMP")) dump_ls<T, N>(folder, q);
  const std::string b = "tensors/least_squares/" + std::to_string(N) + "/" + type_name<T>() + "/";
  reg(b + "calx", bm<P, &calx_ls<T, N>>, &q);
  reg(b + "hand", bm<P, &hand_ls<T, N>>, &q);
  reg(b + "hand_one_pass", bm<P, &hand_ls_one_pass<T, N>>, &q);
  const std::string label = std::string(type_name<T>()) + " least squares " + std::to_string(N) + ", calx / ";
  compare(label + "hand", b + "calx", b + "hand");
  compare(label + "hand one pass", b + "calx", b + "hand_one_pass");
}

template <class T>
void register_type() {
  static std::deque<mlp_problem<T>> mlps;
  mlp_problem<T>& m = mlps.emplace_back(make_mlp<T>());
  const double tol = sizeof(T) == 4 ? 2e-5 : 1e-12;
  {
    mlp_problem<T> a = m, b = m;
    calx_mlp(a);
    hand_mlp(b);
    mlp_problem<T> c = m;
    hand_mlp_rows(c);
    double e = 0;
    for (std::size_t i = 0; i < samples; ++i)
      e = std::max({e, max_rel<T>(a.grads[i], b.grads[i]), max_rel<T>(a.grads[i], c.grads[i])});
    if (!(e <= tol)) {
      std::printf("check failed (mlp %s): difference %.3g\n", type_name<T>(), e);
      std::exit(1);
    }
  }
  if (const char* folder = std::getenv("CALX_BENCH_DUMP")) dump_mlp<T>(folder, m);
  const std::string t = type_name<T>();
  reg("tensors/mlp/" + t + "/calx", bm<mlp_problem<T>, &calx_mlp<T>>, &m);
  reg("tensors/mlp/" + t + "/hand", bm<mlp_problem<T>, &hand_mlp<T>>, &m);
  reg("tensors/mlp/" + t + "/hand_rows", bm<mlp_problem<T>, &hand_mlp_rows<T>>, &m);
  compare(t + " per-sample MLP gradients, calx / hand", "tensors/mlp/" + t + "/calx", "tensors/mlp/" + t + "/hand");
  compare(t + " per-sample MLP gradients, calx / hand by rows", "tensors/mlp/" + t + "/calx",
          "tensors/mlp/" + t + "/hand_rows");
  [&]<std::size_t... I>(std::index_sequence<I...>) { (register_ls<T, ls_sizes[I]>(), ...); }
  (std::make_index_sequence<std::size(ls_sizes)>{});
}

}  // namespace

int main(int argc, char** argv) {
  std::printf("xsimd arch: %s\n", xsimd::default_arch::name());
  register_type<float>();
  register_type<double>();
  return run_benchmarks(argc, argv);
}
