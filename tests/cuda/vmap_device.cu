// The vmap test matrix on a GPU (tests/_include/device_matrix.hpp): every case runs as a
// CUDA kernel over device memory and is compared with the SIMD executor's results on the
// host, on the default stream and on a stream of its own. Exits 77 (CTest: skipped) when
// no GPU is present; CI compiles it whenever nvcc is.
#include <_include/device_matrix.hpp>

#include "device_main.cuh"

namespace {
struct matrix {
  template <class T, class Check>
  static void run(Check& check, calx::detail::stream_handle stream) {
    calx_device_test::run_matrix<T>(check, stream);
  }
};
}  // namespace

int main() { return calx_device_test::device_test_main<matrix>("vmap_device"); }
