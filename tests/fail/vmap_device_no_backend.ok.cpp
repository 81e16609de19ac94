// The fix for a test without a GPU: CALX_DEVICE_ON_HOST runs the device path on the host
// (here the "device" memory is host memory). With a GPU: compile with nvcc.
#define CALX_DEVICE_ON_HOST 1
#include <calx/calx.hpp>

int main() {
  double x[4] = {1, 2, 3, 4}, out[4] = {};
  calx::device_span<double> o(out, 4);
  calx::vmap([](auto v) { return v * v; }).into(o)(calx::device_span<const double>(x, 4));
}
