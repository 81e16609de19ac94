// The runtime-index ops over device spans on a GPU (tests/_include/indexing_device_cases.hpp:
// take, segment_sum, dynamic_slice and their transposes in the gradient, shared and per-sample
// indices) against the host, on the default stream and on a stream of its own. Exits 77
// (CTest: skipped) when no GPU is present.
#include <_include/indexing_device_cases.hpp>

#include "device_main.cuh"

namespace {
struct indexing {
  template <class T, class Check>
  static void run(Check& check, calx::detail::stream_handle stream) {
    calx_device_test::run_indexing<T>(check, stream);
  }
};
}  // namespace

int main() { return calx_device_test::device_test_main<indexing>("indexing_device"); }
