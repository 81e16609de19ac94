// The main of a GPU test over the device matrix (tests/_include/device_matrix.hpp): runs
// `Run` (a class template's `run<T>(check, stream)`) in f64 and f32 on the default stream
// and in f64 on a stream of its own, prints each failed check and a summary line, and
// exits 77 (CTest: skipped) without a GPU.
#ifndef CALX_TESTS_CUDA_DEVICE_MAIN_CUH
#define CALX_TESTS_CUDA_DEVICE_MAIN_CUH

#include <calx/calx.hpp>

#include <cstdio>
#include <string>

namespace calx_device_test {

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

template <class Run>
int device_test_main(const char* name) {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::printf("%s: no CUDA device: skipped\n", name);
    return 77;
  }
  print_check check;
  cudaStream_t stream = nullptr;
  calx::detail::cuda_check(cudaStreamCreate(&stream), "cudaStreamCreate");
  Run::template run<double>(check, nullptr);
  Run::template run<float>(check, nullptr);
  Run::template run<double>(check, stream);
  calx::detail::cuda_check(cudaStreamDestroy(stream), "cudaStreamDestroy");
  std::printf("%s: %d of %d checks failed\n", name, check.failures, check.checks);
  return check.failures == 0 ? 0 : 1;
}

}  // namespace calx_device_test

#endif  // CALX_TESTS_CUDA_DEVICE_MAIN_CUH
