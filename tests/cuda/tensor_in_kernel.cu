// A calx tensor program evaluated inside a __global__ kernel, one sample per thread: tensor
// nodes become loops in device code. (A program traced from a transform, such as
// trace(grad(f)), does not compile under nvcc yet, scalar or tensor: the tracing path calls
// a host-only function; that is the CUDA issue's.) CI compiles this with nvcc
// (scripts/check-cuda.sh, compile-only); on a machine with a GPU it links and runs:
//   nvcc -std=c++20 --expt-relaxed-constexpr -arch=sm_90 -I include tests/cuda/tensor_in_kernel.cu
#include <calx/calx.hpp>

#include <cmath>
#include <cstdio>

using W = calx::tensor<float, 4, 3>;
using X = calx::tensor<float, 3>;

struct f_t {
  template <class A, class B>
  constexpr auto operator()(const A& w, const B& x) const {
    return calx::sum(calx::tanh(calx::matvec(w, x))) + calx::max(x) * calx::prod(x);
  }
};

using P = decltype(calx::trace(f_t{}, W{}, X{}));

__global__ void eval(const W* w, const X* x, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = P{}(*w, x[i]);
}

int main() {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::printf("tensor_in_kernel: no CUDA device: skipped\n");
    return 77;  // CTest: skipped
  }
  constexpr int n = 1000;
  W* w;
  X* x;
  float* out;
  if (cudaMallocManaged(&w, sizeof(W)) != cudaSuccess || cudaMallocManaged(&x, n * sizeof(X)) != cudaSuccess ||
      cudaMallocManaged(&out, n * sizeof(float)) != cudaSuccess) {
    std::printf("tensor_in_kernel: no CUDA device\n");
    return 1;
  }
  *w = W{};
  for (int k = 0; k < 12; ++k) w->data()[k] = 0.1f * static_cast<float>(k % 5) - 0.2f;
  for (int i = 0; i < n; ++i) {
    x[i] = X{};
    for (int k = 0; k < 3; ++k) x[i][k] = std::sin(0.01f * static_cast<float>(i + 7 * k));
  }
  eval<<<(n + 255) / 256, 256>>>(w, x, out, n);
  if (cudaDeviceSynchronize() != cudaSuccess) {
    std::printf("tensor_in_kernel: kernel failed\n");
    return 1;
  }
  int failures = 0;
  for (int i = 0; i < n; ++i) {
    const float want = P{}(*w, x[i]);  // the same program on the host
    failures += std::abs(out[i] - want) <= 1e-5f * (1.0f + std::abs(want)) ? 0 : 1;
  }
  std::printf("tensor_in_kernel: %d of %d samples differ from the host\n", failures, n);
  cudaFree(w);
  cudaFree(x);
  cudaFree(out);
  return failures == 0 ? 0 : 1;
}
