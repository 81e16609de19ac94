// A user tensor op (calx/tensor_op.hpp) in a calx program evaluated inside a __global__
// kernel, one sample per thread: device code runs the op's decomposition (its kernel on
// whole tensors is a host function), and the host runs the same program with the kernel.
// CI compiles this with nvcc (scripts/check-cuda.sh, compile-only); with a GPU it runs:
//   nvcc -std=c++20 --expt-relaxed-constexpr -arch=sm_90 -I include -I tests tests/cuda/tensor_op_in_kernel.cu
#include <_include/user_tensor_ops.hpp>  // tl::conv1d: a kernel and a decomposition
#include <calx/calx.hpp>

#include <cmath>
#include <cstdio>

using X = calx::tensor<float, 8>;
using K = calx::tensor<float, 3>;

struct f_t {
  template <class A, class B>
  constexpr auto operator()(const A& x, const B& k) const {
    return calx::sum(calx::tanh(tl::conv1d(x, k)));
  }
};

using P = decltype(calx::trace(f_t{}, X{}, K{}));

__global__ void eval(const X* x, const K* k, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = P{}(x[i], *k);
}

int main() {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::printf("tensor_op_in_kernel: no CUDA device: skipped\n");
    return 77;  // CTest: skipped
  }
  constexpr int n = 1000;
  X* x;
  K* k;
  float* out;
  if (cudaMallocManaged(&x, n * sizeof(X)) != cudaSuccess || cudaMallocManaged(&k, sizeof(K)) != cudaSuccess ||
      cudaMallocManaged(&out, n * sizeof(float)) != cudaSuccess) {
    std::printf("tensor_op_in_kernel: no CUDA device\n");
    return 1;
  }
  *k = K{};
  (*k)[0] = 0.5f, (*k)[1] = -1.0f, (*k)[2] = 0.25f;
  for (int i = 0; i < n; ++i) {
    x[i] = X{};
    for (int e = 0; e < 8; ++e) x[i][e] = std::sin(0.01f * static_cast<float>(i + 5 * e));
  }
  eval<<<(n + 255) / 256, 256>>>(x, k, out, n);
  if (cudaDeviceSynchronize() != cudaSuccess) {
    std::printf("tensor_op_in_kernel: kernel failed\n");
    return 1;
  }
  int failures = 0;
  for (int i = 0; i < n; ++i) {
    const float want = P{}(x[i], *k);  // the same program on the host: the op's kernel
    failures += std::abs(out[i] - want) <= 1e-5f * (1.0f + std::abs(want)) ? 0 : 1;
  }
  std::printf("tensor_op_in_kernel: %d of %d samples differ from the host\n", failures, n);
  cudaFree(x);
  cudaFree(k);
  cudaFree(out);
  return failures == 0 ? 0 : 1;
}
