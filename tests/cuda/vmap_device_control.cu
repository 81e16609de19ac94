// The device matrix's control-flow cases on a GPU (tests/_include/device_matrix.hpp,
// `run_control_flow`: cond, its gradient, the gradient through a checkpoint) against the
// SIMD executor on the host, on the default stream and on a stream of its own; a TU of its
// own, apart from tests/cuda/vmap_device.cu, to keep each within the test TU budget. Exits
// 77 (CTest: skipped) when no GPU is present.
#include <_include/device_matrix.hpp>

#include "device_main.cuh"

namespace {
struct control_flow {
  template <class T, class Check>
  static void run(Check& check, calx::detail::stream_handle stream) {
    calx_device_test::run_control_flow<T>(check, stream);
  }
};
}  // namespace

int main() { return calx_device_test::device_test_main<control_flow>("vmap_device_control"); }
