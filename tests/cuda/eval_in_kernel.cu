// A calx program evaluated inside a __global__ kernel: the generated straight-line code is
// device code. CI compiles this with nvcc (scripts/check-cuda.sh, compile-only); on a
// machine with a GPU the same file links and runs as a test:
//   nvcc -std=c++20 --expt-relaxed-constexpr -arch=sm_90 -I include tests/cuda/eval_in_kernel.cu
#include <calx/calx.hpp>

#include <cmath>
#include <cstdio>

// Several ops, comparisons and calx::where, constants and shared subexpressions.
struct f_t {
  template <class X, class Y>
  constexpr auto operator()(const X& x, const Y& y) const {
    auto r2 = x * x + y * y;
    auto inner = calx::sin(x) * calx::exp(-y) + calx::sqrt(r2 + 1.0);
    auto outer = calx::log1p(r2) / (1.0 + calx::abs(x - y));
    return calx::where(x < y, inner, outer) + calx::max(x, y) * 0.5 - calx::tanh(x * y);
  }
};

// Control flow: a cond (one IR node whose branches are sub-programs) and a checkpoint. nvcc's
// front end computes the program's IR for the device code, the host compiler for the host:
// both must find the same (they did not for ops with results kernels; see
// detail/ops/describe.hpp).
struct g_t {
  template <class X, class Y>
  constexpr auto operator()(const X& x, const Y& y) const {
    const auto c = calx::cond(
        x < y, [](auto a, auto b) { return calx::sin(a) * b + a; }, [](auto a, auto b) { return a * a - calx::exp(-b); },
        x, y);
    return c + calx::checkpoint([](auto a, auto b) { return calx::tanh(a * b); })(x, y);
  }
};

using P = decltype(calx::trace(f_t{}, 1.0, 1.0));
using G = decltype(calx::trace(g_t{}, 1.0, 1.0));
using Pf = decltype(calx::trace(f_t{}, 1.0f, 1.0f));

__global__ void eval(const double* x, const double* y, double* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = P{}(x[i], y[i]);
}

__global__ void eval_control_flow(const double* x, const double* y, double* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = G{}(x[i], y[i]);
}

__global__ void eval_float(const float* x, const float* y, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = Pf{}(x[i], y[i]);
}

int main() {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::printf("eval_in_kernel: no CUDA device: skipped\n");
    return 77;  // CTest: skipped
  }
  constexpr int n = 1000;
  double *x, *y, *out;
  if (cudaMallocManaged(&x, n * sizeof(double)) != cudaSuccess || cudaMallocManaged(&y, n * sizeof(double)) != cudaSuccess ||
      cudaMallocManaged(&out, n * sizeof(double)) != cudaSuccess) {
    std::printf("eval_in_kernel: no CUDA device\n");
    return 1;
  }
  for (int i = 0; i < n; ++i) {
    x[i] = -2.0 + 4.0 * i / n;
    y[i] = 1.5 - 3.0 * ((i * 37) % n) / n;
  }
  eval<<<(n + 255) / 256, 256>>>(x, y, out, n);
  if (cudaDeviceSynchronize() != cudaSuccess) {
    std::printf("eval_in_kernel: kernel failed\n");
    return 1;
  }
  int failures = 0;
  for (int i = 0; i < n; ++i) {
    double want = P{}(x[i], y[i]);  // the same program on the host
    if (std::abs(out[i] - want) > 1e-12 * (1.0 + std::abs(want))) ++failures;
  }
  eval_control_flow<<<(n + 255) / 256, 256>>>(x, y, out, n);
  if (cudaDeviceSynchronize() != cudaSuccess) {
    std::printf("eval_in_kernel: kernel failed\n");
    return 1;
  }
  for (int i = 0; i < n; ++i) {
    double want = G{}(x[i], y[i]);
    if (std::abs(out[i] - want) > 1e-12 * (1.0 + std::abs(want))) ++failures;
  }
  std::printf("eval_in_kernel: %d of %d values differ from the host (two programs, one with cond and checkpoint)\n",
              failures, 2 * n);
  cudaFree(x);
  cudaFree(y);
  cudaFree(out);
  return failures == 0 ? 0 : 1;
}
