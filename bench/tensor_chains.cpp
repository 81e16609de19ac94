/// @file bench/tensor_chains.cpp
/// @brief Chains of elementwise tensor ops and reductions on one sample, against the best
/// hand-written xsimd code in the same binary and run, one thread (issue 26, "Benchmarks"):
///   - `logsumexp`: `calx::logsumexp` of a `calx::tensor<T, 2500>`, and its `value_and_grad`
///     (the gradient is the softmax), against hand code that takes the max, then sums
///     `xsimd::exp(x - max)` while storing it, then scales it by the sum's inverse.
///   - `rk4`: one RK4 step of GradBench's ode (z[0] = x[0], z[i] = x[i] y[i-1], written with
///     `slice`, `concatenate` and elementwise math) on 1000-vectors, against hand xsimd loops
///     (one per stage), and the gradient of its last component with respect to x
///     (`calx::grad`) against calx's own primal (targets: primal <= 1.2x hand, gradient <= 3x
///     the primal).
/// f32 and f64. Prints `ratio=` calx / hand (logsumexp's target <= 1.10).
///
///   bench_tensor_chains --benchmark_repetitions=10 --benchmark_enable_random_interleaving=true
#include "bench_common.hpp"

#include <calx/calx.hpp>

#include <xsimd/xsimd.hpp>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <initializer_list>
#include <string>
#include <vector>

namespace {

using namespace calx_bench;

// ---- logsumexp ------------------------------------------------------------------------

constexpr std::size_t lse_n = 2500;
constexpr auto lse = [](const auto& x) { return calx::logsumexp(x); };

template <class T>
struct lse_problem {
  calx::tensor<T, lse_n> x, g;
  T value = 0;
};

template <class T>
lse_problem<T> make_lse() {
  lse_problem<T> q;
  std::vector<T> v;
  fill_uniform(v, lse_n, -20.0, 20.0, 21);
  for (std::size_t e = 0; e < lse_n; ++e) q.x[e] = v[e];
  return q;
}

template <class T>
[[gnu::noinline]] void calx_lse(lse_problem<T>& q) {
  q.value = calx::trace(lse, q.x)(q.x);
}

/// A tensor calx returns, in a timed call: read where calx put it (where a caller's next step
/// reads it), not copied into the problem's buffer, which only the checks (`Copy`) need. The
/// hand code writes its one buffer once; so does calx (the copy of 10 KB was 10% of the
/// logsumexp gradient's time).
template <bool Copy, class R, class Out>
void keep(const R& r, Out& out) {
  if constexpr (Copy)
    out = r;
  else
    benchmark::DoNotOptimize(r);
}

template <class T, bool Copy = false>
[[gnu::noinline]] void calx_lse_grad(lse_problem<T>& q) {
  const auto [v, g] = calx::value_and_grad(lse)(q.x);
  q.value = v;
  keep<Copy>(g, q.g);
}

/// max(x), four accumulators.
template <class T>
T hand_max(const T* x) {
  using B = xsimd::batch<T>;
  constexpr std::size_t W = B::size, full = lse_n / (4 * W) * (4 * W);
  B m0(x[0]), m1 = m0, m2 = m0, m3 = m0;
  std::size_t i = 0;
  for (; i < full; i += 4 * W) {
    m0 = xsimd::max(m0, B::load_unaligned(x + i));
    m1 = xsimd::max(m1, B::load_unaligned(x + i + W));
    m2 = xsimd::max(m2, B::load_unaligned(x + i + 2 * W));
    m3 = xsimd::max(m3, B::load_unaligned(x + i + 3 * W));
  }
  alignas(64) T lanes[W];
  xsimd::max(xsimd::max(m0, m1), xsimd::max(m2, m3)).store_aligned(lanes);
  T m = lanes[0];
  for (std::size_t l = 1; l < W; ++l) m = std::max(m, lanes[l]);
  for (; i < lse_n; ++i) m = std::max(m, x[i]);
  return m;
}

/// sum(exp(x - m)), storing each exp in `e` when it is not null.
template <class T, bool Store>
T hand_exp_sum(const T* x, T m, T* e) {
  using B = xsimd::batch<T>;
  constexpr std::size_t W = B::size, full = lse_n / (2 * W) * (2 * W);
  const B mb(m);
  B s0(T(0)), s1(T(0));
  std::size_t i = 0;
  for (; i < full; i += 2 * W) {
    const B e0 = xsimd::exp(B::load_unaligned(x + i) - mb), e1 = xsimd::exp(B::load_unaligned(x + i + W) - mb);
    if constexpr (Store) {
      e0.store_unaligned(e + i);
      e1.store_unaligned(e + i + W);
    }
    s0 += e0;
    s1 += e1;
  }
  T s = xsimd::hadd(s0 + s1);
  for (; i < lse_n; ++i) {
    const T v = std::exp(x[i] - m);
    if constexpr (Store) e[i] = v;
    s += v;
  }
  return s;
}

template <class T>
[[gnu::noinline]] void hand_lse(lse_problem<T>& q) {
  const T m = hand_max(q.x.data());
  q.value = std::log(hand_exp_sum<T, false>(q.x.data(), m, nullptr)) + m;
}

template <class T>
[[gnu::noinline]] void hand_lse_grad(lse_problem<T>& q) {
  using B = xsimd::batch<T>;
  constexpr std::size_t W = B::size, full = lse_n / W * W;
  const T m = hand_max(q.x.data());
  T* g = q.g.data();
  const T s = hand_exp_sum<T, true>(q.x.data(), m, g);
  q.value = std::log(s) + m;
  const T r = T(1) / s;
  std::size_t i = 0;
  for (; i < full; i += W) (B::load_unaligned(g + i) * r).store_unaligned(g + i);
  for (; i < lse_n; ++i) g[i] *= r;
}

template <class T>
void check_lse(lse_problem<T>& q) {
  lse_problem<T> a = q, b = q, c = q, d = q;
  calx_lse(a);
  hand_lse(b);
  calx_lse_grad<T, true>(c);
  hand_lse_grad(d);
  const double tol = sizeof(T) == 4 ? 1e-5 : 1e-13;
  double e = std::max(std::abs(double(a.value) - double(b.value)), std::abs(double(c.value) - double(d.value))) /
             std::abs(double(b.value));
  for (std::size_t k = 0; k < lse_n; ++k)
    e = std::max(e, std::abs(double(c.g[k]) - double(d.g[k])) / std::max(double(d.g[k]), 1e-30));
  if (!(e <= tol)) {
    std::printf("check failed (logsumexp %s): difference %.3g\n", type_name<T>(), e);
    std::exit(1);
  }
}

// ---- RK4 (GradBench's ode) --------------------------------------------------------------

constexpr std::size_t ode_n = 1000;
constexpr double ode_h = 2.0;  // GradBench's default: one step to t = 2

/// GradBench's ode_fun on tensors: z[0] = x[0], z[i] = x[i] y[i-1].
constexpr auto ode_fun = [](const auto& x, const auto& y) {
  return calx::concatenate(calx::slice<0, 1>(x), calx::slice<1, ode_n>(x) * calx::slice<0, ode_n - 1>(y));
};

/// One RK4 step of y' = ode_fun(x, y), as GradBench's eval writes it.
constexpr auto rk4 = [](const auto& x, const auto& y) {
  const auto k1 = ode_fun(x, y);
  const auto k2 = ode_fun(x, y + k1 * (ode_h / 2));
  const auto k3 = ode_fun(x, y + k2 * (ode_h / 2));
  const auto k4 = ode_fun(x, y + k3 * ode_h);
  return y + (k1 + k2 * 2.0 + k3 * 2.0 + k4) * (ode_h / 6);
};
/// GradBench's gradient is of the last component, with respect to x.
constexpr auto rk4_last = [](const auto& x, const auto& y) { return calx::sum(calx::slice<ode_n - 1, ode_n>(rk4(x, y))); };

template <class T>
struct ode_problem {
  calx::tensor<T, ode_n> x, y, out, g;
};

template <class T>
ode_problem<T> make_ode() {
  ode_problem<T> q;
  std::vector<T> v;
  fill_uniform(v, 2 * ode_n, 0.0, 1.0, 31);
  for (std::size_t e = 0; e < ode_n; ++e) {
    q.x[e] = v[e];
    q.y[e] = v[ode_n + e];  // a state that is not zero, so that no product vanishes
  }
  return q;
}

template <class T, bool Copy = false>
[[gnu::noinline]] void calx_rk4(ode_problem<T>& q) {
  keep<Copy>(calx::trace(rk4, q.x, q.y)(q.x, q.y), q.out);
}

template <class T, bool Copy = false>
[[gnu::noinline]] void calx_rk4_grad(ode_problem<T>& q) {
  keep<Copy>(calx::grad(rk4_last)(q.x, q.y), q.g);
}

/// One stage: k[0] = x[0], k[i] = x[i] * (y[i-1] + c * kp[i-1]) (without kp: x[i] * y[i-1]).
template <class T, bool Prev>
CALX_INLINE void hand_stage(const T* x, const T* y, const T* kp, T c, T* k) {
  using B = xsimd::batch<T>;
  constexpr std::size_t W = B::size;
  k[0] = x[0];
  std::size_t i = 1;
  const B cb(c);
  for (; i + W <= ode_n; i += W) {
    B s = B::load_unaligned(y + i - 1);
    if constexpr (Prev) s = xsimd::fma(cb, B::load_unaligned(kp + i - 1), s);
    (B::load_unaligned(x + i) * s).store_unaligned(k + i);
  }
  for (; i < ode_n; ++i) k[i] = x[i] * (Prev ? y[i - 1] + c * kp[i - 1] : y[i - 1]);
}

/// The primal by hand: four stage loops with xsimd (each reads the previous stage at i - 1),
/// then the combination.
template <class T>
[[gnu::noinline]] void hand_rk4(ode_problem<T>& q) {
  using B = xsimd::batch<T>;
  constexpr std::size_t W = B::size;
  alignas(64) T k1[ode_n], k2[ode_n], k3[ode_n], k4[ode_n];
  const T h = T(ode_h);
  hand_stage<T, false>(q.x.data(), q.y.data(), nullptr, T(0), k1);
  hand_stage<T, true>(q.x.data(), q.y.data(), k1, h / 2, k2);
  hand_stage<T, true>(q.x.data(), q.y.data(), k2, h / 2, k3);
  hand_stage<T, true>(q.x.data(), q.y.data(), k3, h, k4);
  const B h6(h / 6), two(T(2));
  std::size_t i = 0;
  for (; i + W <= ode_n; i += W) {
    const B s = B::load_aligned(k1 + i) + two * (B::load_aligned(k2 + i) + B::load_aligned(k3 + i)) + B::load_aligned(k4 + i);
    xsimd::fma(h6, s, B::load_unaligned(q.y.data() + i)).store_unaligned(q.out.data() + i);
  }
  for (; i < ode_n; ++i) q.out[i] = q.y[i] + h / 6 * (k1[i] + 2 * (k2[i] + k3[i]) + k4[i]);
}

template <class T>
void check_rk4(ode_problem<T>& q) {
  ode_problem<T> a = q, b = q;
  calx_rk4<T, true>(a);
  hand_rk4(b);
  double e = 0;
  for (std::size_t k = 0; k < ode_n; ++k)
    e = std::max(e, std::abs(double(a.out[k]) - double(b.out[k])) / std::max(1.0, std::abs(double(b.out[k]))));
  // The gradient of the last component against central differences of the hand primal in
  // double (it reads x[n-4 .. n-1] only; the others are zero).
  calx_rk4_grad<T, true>(a);
  ode_problem<double> d;
  for (std::size_t k = 0; k < ode_n; ++k) {
    d.x[k] = double(q.x[k]);
    d.y[k] = double(q.y[k]);
  }
  double eg = 0;
  for (std::size_t k : {std::size_t{0}, ode_n / 2, ode_n - 4, ode_n - 3, ode_n - 2, ode_n - 1}) {
    ode_problem<double> p = d, m = d;
    const double step = 1e-6;
    p.x[k] += step;
    m.x[k] -= step;
    hand_rk4(p);
    hand_rk4(m);
    const double fd = (p.out[ode_n - 1] - m.out[ode_n - 1]) / (2 * step);
    eg = std::max(eg, std::abs(double(a.g[k]) - fd) / std::max(1.0, std::abs(fd)));
  }
  // Central differences of step 1e-6 are good to about 1e-8 here; f32 gradients to 1e-5.
  if (!(e <= (sizeof(T) == 4 ? 1e-5 : 1e-13)) || !(eg <= (sizeof(T) == 4 ? 1e-4 : 1e-7))) {
    std::printf("check failed (rk4 %s): primal %.3g, gradient %.3g\n", type_name<T>(), e, eg);
    std::exit(1);
  }
}

/// With CALX_BENCH_DUMP=<folder>, the inputs and calx's results, as raw arrays of T in this
/// order, for bench/peers/tensor_chains.py to run JAX on the same numbers and check it
/// against calx: lse_<t>.bin: x (2500), logsumexp(x) (calx::trace), then value_and_grad's
/// value and gradient (2500); rk4_<t>.bin: x, y (1000 each), the RK4 step (1000), then the
/// gradient of its last component with respect to x (1000).
template <class T>
void dump(const char* folder, const lse_problem<T>& q0, const ode_problem<T>& o0) {
  lse_problem<T> a = q0, b = q0;
  calx_lse(a);
  calx_lse_grad<T, true>(b);
  const std::string t = type_name<T>();
  write_numbers<T>(std::string(folder) + "/lse_" + t + ".bin", [&](std::vector<T>& v) {
    v.insert(v.end(), q0.x.data(), q0.x.data() + lse_n);
    v.push_back(a.value);
    v.push_back(b.value);
    v.insert(v.end(), b.g.data(), b.g.data() + lse_n);
  });
  ode_problem<T> o = o0;
  calx_rk4<T, true>(o);
  calx_rk4_grad<T, true>(o);
  write_numbers<T>(std::string(folder) + "/rk4_" + t + ".bin", [&](std::vector<T>& v) {
    for (const auto* e : {&o.x, &o.y, &o.out, &o.g}) v.insert(v.end(), e->data(), e->data() + ode_n);
  });
}

template <class T>
void register_type() {
  static std::deque<lse_problem<T>> lses;
  static std::deque<ode_problem<T>> odes;
  lse_problem<T>& q = lses.emplace_back(make_lse<T>());
  ode_problem<T>& o = odes.emplace_back(make_ode<T>());
  check_lse(q);
  check_rk4(o);
  if (const char* folder = std::getenv("CALX_BENCH_DUMP")) dump<T>(folder, q, o);
  const std::string t = type_name<T>();
  auto reg = [&](std::string name, auto fn, auto* p) {
    benchmark::RegisterBenchmark(name.c_str(), fn, p)->ComputeStatistics("min", min_of);
  };
  const std::string b = "tensor_chains/logsumexp/" + t + "/";
  reg(b + "calx", bm<lse_problem<T>, &calx_lse<T>>, &q);
  reg(b + "hand", bm<lse_problem<T>, &hand_lse<T>>, &q);
  reg(b + "calx_grad", bm<lse_problem<T>, &calx_lse_grad<T>>, &q);
  reg(b + "hand_grad", bm<lse_problem<T>, &hand_lse_grad<T>>, &q);
  compare(t + " logsumexp of 2500, calx / hand", b + "calx", b + "hand");
  compare(t + " logsumexp of 2500 and its gradient, calx / hand", b + "calx_grad", b + "hand_grad");
  const std::string r = "tensor_chains/rk4/" + t + "/";
  reg(r + "calx", bm<ode_problem<T>, &calx_rk4<T>>, &o);
  reg(r + "hand", bm<ode_problem<T>, &hand_rk4<T>>, &o);
  reg(r + "calx_grad", bm<ode_problem<T>, &calx_rk4_grad<T>>, &o);
  compare(t + " RK4 step of 1000, calx / hand", r + "calx", r + "hand");
  compare(t + " RK4 gradient / calx's primal", r + "calx_grad", r + "calx");
  compare(t + " RK4 gradient / hand primal", r + "calx_grad", r + "hand");
}

}  // namespace

int main(int argc, char** argv) {
  std::printf("xsimd arch: %s\n", xsimd::default_arch::name());
  register_type<float>();
  register_type<double>();
  return run_benchmarks(argc, argv);
}
