// The vmap test matrix on a GPU (tests/_include/device_matrix.hpp): every case runs as a
// CUDA kernel over device memory and is compared with the SIMD executor's results on the
// host, on the default stream and on a stream of its own. Exits 77 (CTest: skipped) when
// no GPU is present; CI compiles it whenever nvcc is.
#include <_include/device_matrix.hpp>

#include <calx/calx.hpp>

#include <cstdio>
#include <string>

namespace {
struct print_check {
  int failures = 0, checks = 0;
  void operator()(const std::string& name, bool ok, const std::string& detail) {
    ++checks;
    if (!ok) {
      ++failures;
      std::printf("FAILED: %s: %s\n", name.c_str(), detail.c_str());
    }
  }
};
}  // namespace

int main() {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::printf("vmap_device: no CUDA device: skipped\n");
    return 77;
  }
  print_check check;
  cudaStream_t stream = nullptr;
  calx::detail::cuda_check(cudaStreamCreate(&stream), "cudaStreamCreate");
  calx_device_test::run_matrix<double>(check, nullptr);
  calx_device_test::run_matrix<float>(check, nullptr);
  calx_device_test::run_matrix<double>(check, stream);
  calx::detail::cuda_check(cudaStreamDestroy(stream), "cudaStreamDestroy");
  std::printf("vmap_device: %d of %d checks failed\n", check.failures, check.checks);
  return check.failures == 0 ? 0 : 1;
}
