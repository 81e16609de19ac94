// The CUDA benchmark: calx::vmap over device memory against hand-written CUDA kernels and
// the device's memory-bandwidth floor, over 2^24 points, timed with CUDA events.
//   - Black-Scholes call value and its five Greeks (delta, gamma, vega, theta, rho): calx
//     derives them (value_and_grad and grad of grad of the price); two hand kernels, the
//     closed forms ("closed") and the chain rule as reverse mode reaches it, gamma forward
//     over it ("chain", the like-for-like reference: docs/performance.md);
//   - Rosenbrock value and gradient: calx's value_and_grad, the hand kernel the chain rule.
// Same buffers, same launch size (one thread per point, blocks of 256), f64 and f32. The
// floor is a kernel that reads every input and writes every output once with no arithmetic.
// Each timing is the median of 21 runs, interleaved (calx, the hand kernels, the floor); min
// and max beside it. Results are checked against the hand kernels first (exit 1 if they
// differ). Exits 77 without a GPU.
//   nvcc -std=c++20 --expt-relaxed-constexpr -O3 -arch=sm_90 -I include bench/cuda.cu
#include "functions.hpp"

#include <calx/calx.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <span>
#include <functional>
#include <tuple>
#include <vector>

namespace {

using calx_bench::black_scholes;
using calx_bench::rosenbrock;

/// Price and Greeks: delta = dV/dS, gamma = d2V/dS2, vega = dV/dsigma, theta = -dV/dT,
/// rho = dV/dr.
constexpr auto greeks = [](auto S, auto K, auto T, auto r, auto sigma) {
  const auto [value, g] = calx::value_and_grad(black_scholes, calx::argnums<0, 2, 3, 4>)(S, K, T, r, sigma);
  const auto [dS, dT, dr, dsigma] = g;
  const auto gamma = calx::grad(calx::grad(black_scholes))(S, K, T, r, sigma);
  return std::tuple{value, dS, gamma, dsigma, -dT, dr};
};
constexpr auto rosenbrock_vg = calx::value_and_grad(rosenbrock, calx::argnums<0, 1>);

constexpr unsigned block = 256;

template <class T>
__global__ void greeks_hand(const T* S, const T* K, const T* T_, const T* r, const T* sigma, T* value, T* delta,
                            T* gamma, T* vega, T* theta, T* rho, std::size_t n) {
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const T s = S[i], k = K[i], t = T_[i], rr = r[i], v = sigma[i];
  const T sqrt_t = sqrt(t), vol = v * sqrt_t;
  const T d1 = (log(s / k) + (rr + T(0.5) * (v * v)) * t) / vol, d2 = d1 - vol;
  const T disc = exp(-(rr * t));
  const T n1 = T(0.5) * erfc(-d1 * T(calx_bench::inv_sqrt2)), n2 = T(0.5) * erfc(-d2 * T(calx_bench::inv_sqrt2));
  const T pdf = T(calx_bench::inv_sqrt_2pi) * exp(T(-0.5) * d1 * d1);
  value[i] = s * n1 - k * disc * n2;
  delta[i] = n1;
  gamma[i] = pdf / (s * vol);
  vega[i] = s * pdf * sqrt_t;
  theta[i] = -(s * pdf * v) / (T(2) * sqrt_t) - rr * k * disc * n2;
  rho[i] = k * t * disc * n2;
}

/// Value and Greeks the way reverse mode reaches them (bench/hand.hpp's
/// black_scholes_chain): the forward sweep, the chain rule backwards, gamma by carrying
/// d/dS forward through delta's sweep. Two density evaluations and the divisions an AD tool
/// makes; what calx is held to (the closed form above knows S n(d1) = K e^(-rT) n(d2)).
template <class T>
__global__ void greeks_chain(const T* S, const T* K, const T* T_, const T* r, const T* sigma, T* value, T* delta,
                             T* gamma, T* vega, T* theta, T* rho, std::size_t n) {
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const T s = S[i], k = K[i], t = T_[i], rr = r[i], v = sigma[i];
  const T sqrt_t = sqrt(t), vol = v * sqrt_t;
  const T a = rr + T(0.5) * (v * v);
  const T d1 = (log(s / k) + a * t) / vol, d2 = d1 - vol;
  const T nd1 = T(0.5) * erfc(-d1 * T(calx_bench::inv_sqrt2)), nd2 = T(0.5) * erfc(-d2 * T(calx_bench::inv_sqrt2));
  const T disc = exp(-(rr * t)), k_disc = k * disc;
  const T n1 = T(calx_bench::inv_sqrt_2pi) * exp(T(-0.5) * (d1 * d1));
  const T n2 = T(calx_bench::inv_sqrt_2pi) * exp(T(-0.5) * (d2 * d2));
  // Backwards from C = S N(d1) - K disc N(d2).
  const T g_d2 = -(k_disc * n2);
  const T g_num = (s * n1 + g_d2) / vol;  // dC/d(log(S/K) + a T)
  const T g_vol = -g_d2 - g_num * d1;
  const T g_x = -(k * nd2) * disc;  // dC/d(-rT)
  // d/dS of delta = N(d1) + g_num / S.
  const T d1_s = T(1) / (s * vol);
  const T g_num_s = (n1 - s * (d1 * n1) * d1_s + k_disc * (d2 * n2) * d1_s) / vol;
  value[i] = s * nd1 - k_disc * nd2;
  delta[i] = nd1 + g_num / s;
  gamma[i] = n1 * d1_s + g_num_s / s - g_num / (s * s);
  vega[i] = g_num * t * v + g_vol * sqrt_t;
  theta[i] = -(g_num * a + g_vol * v * T(0.5) / sqrt_t - g_x * rr);
  rho[i] = g_num * t - g_x * t;
}

template <class T>
__global__ void rosenbrock_hand(const T* x, const T* y, T* value, T* dx, T* dy, std::size_t n) {
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const T a = T(1) - x[i], b = y[i] - x[i] * x[i];
  value[i] = a * a + T(100) * (b * b);
  dx[i] = T(-2) * a - T(400) * x[i] * b;
  dy[i] = T(200) * b;
}

/// The floor: every input read, every output written, nothing computed.
template <class T>
__global__ void touch(const T* const* in, int ni, T* const* out, int no, std::size_t n) {
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= n) return;
  T s = T(0);
  for (int k = 0; k < ni; ++k) s += in[k][i];
  for (int k = 0; k < no; ++k) out[k][i] = s;
}

void check(cudaError_t e) { calx::detail::cuda_check(e, "bench/cuda.cu"); }

struct stats {
  float median, min, max;
};
stats time_it(const std::function<void()>& run, std::vector<float>& samples, cudaEvent_t a, cudaEvent_t b) {
  check(cudaEventRecord(a));
  run();
  check(cudaEventRecord(b));
  check(cudaEventSynchronize(b));
  float ms = 0;
  check(cudaEventElapsedTime(&ms, a, b));
  samples.push_back(ms);
  std::vector<float> s = samples;
  std::sort(s.begin(), s.end());
  return {s[s.size() / 2], s.front(), s.back()};
}

/// calx and each baseline (hand-written kernels, then the floor) timed 21 times,
/// interleaved; medians, [min, max] and calx's ratio to each printed.
struct timed {
  const char* name;
  std::function<void()> run;
};
void time_all(const char* what, const char* precision, std::size_t n, const std::vector<timed>& runs, cudaEvent_t a,
              cudaEvent_t b) {
  std::vector<std::vector<float>> samples(runs.size());
  std::vector<stats> st(runs.size());
  for (int rep = 0; rep < 21; ++rep)
    for (std::size_t k = 0; k < runs.size(); ++k) st[k] = time_it(runs[k].run, samples[k], a, b);
  std::printf("%s %s n=%zu:", what, precision, n);
  for (std::size_t k = 0; k < runs.size(); ++k)
    std::printf("  %s %.3f ms [%.3f, %.3f]", runs[k].name, st[k].median, st[k].min, st[k].max);
  for (std::size_t k = 1; k < runs.size(); ++k) std::printf("  calx/%s %.3f", runs[k].name, st[0].median / st[k].median);
  std::printf("\n");
}

template <class T>
std::vector<T> fill(std::size_t n, double lo, double hi) {
  std::vector<T> v(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = static_cast<T>(lo + (hi - lo) * static_cast<double>((i * 7919) % 100003) / 100003.0);
  return v;
}

template <class T>
double largest_difference(const calx::device_vector<T>& a, const calx::device_vector<T>& b) {
  const auto x = a.to_host(), y = b.to_host();
  double d = 0;
  for (std::size_t i = 0; i < x.size(); ++i)
    d = std::max(d, std::abs(static_cast<double>(x[i]) - static_cast<double>(y[i])) / (1.0 + std::abs(static_cast<double>(y[i]))));
  return d;
}

template <class T>
int run(const char* precision, std::size_t n) {
  using calx::device_span;
  using calx::device_vector;
  const unsigned grid = static_cast<unsigned>((n + block - 1) / block);
  const double tol = sizeof(T) == 8 ? 1e-10 : 1e-3;
  cudaEvent_t a, b;
  check(cudaEventCreate(&a));
  check(cudaEventCreate(&b));
  int failed = 0;

  {  // Black-Scholes
    device_vector<T> S{fill<T>(n, 50, 150)}, K{fill<T>(n, 80, 120)}, Tm{fill<T>(n, 0.1, 2)}, r{fill<T>(n, 0, 0.05)},
        sigma{fill<T>(n, 0.1, 0.5)};
    std::vector<device_vector<T>> mine, hand, chain;
    for (int k = 0; k < 6; ++k) {
      mine.emplace_back(n);
      hand.emplace_back(n);
      chain.emplace_back(n);
    }
    auto out = std::tuple{device_span<T>(mine[0]), device_span<T>(mine[1]), device_span<T>(mine[2]),
                          device_span<T>(mine[3]), device_span<T>(mine[4]), device_span<T>(mine[5])};
    const auto calx_run = [&] {
      calx::vmap(greeks).into(out)(device_span<const T>(S), device_span<const T>(K), device_span<const T>(Tm),
                                  device_span<const T>(r), device_span<const T>(sigma));
    };
    const auto hand_run = [&] {
      greeks_hand<T><<<grid, block>>>(S.data(), K.data(), Tm.data(), r.data(), sigma.data(), hand[0].data(),
                                      hand[1].data(), hand[2].data(), hand[3].data(), hand[4].data(), hand[5].data(), n);
    };
    const auto chain_run = [&] {
      greeks_chain<T><<<grid, block>>>(S.data(), K.data(), Tm.data(), r.data(), sigma.data(), chain[0].data(),
                                       chain[1].data(), chain[2].data(), chain[3].data(), chain[4].data(),
                                       chain[5].data(), n);
    };
    const T* in_h[] = {S.data(), K.data(), Tm.data(), r.data(), sigma.data()};
    T* out_h[] = {hand[0].data(), hand[1].data(), hand[2].data(), hand[3].data(), hand[4].data(), hand[5].data()};
    device_vector<const T*> in_d{std::span<const T* const>(in_h)};
    device_vector<T*> out_d{std::span<T* const>(out_h)};
    const auto floor_run = [&] { touch<T><<<grid, block>>>(in_d.data(), 5, out_d.data(), 6, n); };
    calx_run();
    hand_run();
    chain_run();
    check(cudaDeviceSynchronize());
    const char* names[] = {"value", "delta", "gamma", "vega", "theta", "rho"};
    for (int k = 0; k < 6; ++k) {
      const auto at = static_cast<std::size_t>(k);
      const double d = largest_difference(mine[at], hand[at]), dc = largest_difference(chain[at], hand[at]);
      if (!(d <= tol) || !(dc <= tol)) {
        std::printf("black_scholes %s: the hand kernel and calx differ in %s by %g, and the chain-rule kernel by %g\n",
                    precision, names[k], d, dc);
        ++failed;
      }
    }
    time_all("black_scholes+5 greeks", precision, n,
             {{"calx", calx_run}, {"closed", hand_run}, {"chain", chain_run}, {"floor", floor_run}}, a, b);
  }
  {  // Rosenbrock
    device_vector<T> x{fill<T>(n, -2, 2)}, y{fill<T>(n, -1, 3)};
    device_vector<T> v(n), dx(n), dy(n), hv(n), hdx(n), hdy(n);
    auto out = std::pair{device_span<T>(v), std::tuple{device_span<T>(dx), device_span<T>(dy)}};
    const auto calx_run = [&] { calx::vmap(rosenbrock_vg).into(out)(device_span<const T>(x), device_span<const T>(y)); };
    const auto hand_run = [&] {
      rosenbrock_hand<T><<<grid, block>>>(x.data(), y.data(), hv.data(), hdx.data(), hdy.data(), n);
    };
    const T* in_h[] = {x.data(), y.data()};
    T* out_h[] = {hv.data(), hdx.data(), hdy.data()};
    device_vector<const T*> in_d{std::span<const T* const>(in_h)};
    device_vector<T*> out_d{std::span<T* const>(out_h)};
    const auto floor_run = [&] { touch<T><<<grid, block>>>(in_d.data(), 2, out_d.data(), 3, n); };
    calx_run();
    hand_run();
    check(cudaDeviceSynchronize());
    const double d = std::max({largest_difference(v, hv), largest_difference(dx, hdx), largest_difference(dy, hdy)});
    if (!(d <= tol)) {
      std::printf("rosenbrock %s: calx and the hand kernel differ by %g\n", precision, d);
      ++failed;
    }
    time_all("rosenbrock value+grad", precision, n, {{"calx", calx_run}, {"hand", hand_run}, {"floor", floor_run}}, a, b);
  }
  check(cudaEventDestroy(a));
  check(cudaEventDestroy(b));
  return failed;
}

}  // namespace

int main(int argc, char** argv) {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::printf("bench/cuda: no CUDA device: skipped\n");
    return 77;
  }
  cudaDeviceProp prop{};
  check(cudaGetDeviceProperties(&prop, 0));
  std::printf("device: %s, %d SMs\n", prop.name, prop.multiProcessorCount);
  const std::size_t n = argc > 1 ? static_cast<std::size_t>(std::atoll(argv[1])) : (std::size_t{1} << 24);
  int failed = run<double>("f64", n) + run<float>("f32", n);
  return failed == 0 ? 0 : 1;
}
