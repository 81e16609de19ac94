// A batch in device memory beside one in host memory.
// EXPECT: some batched arguments are calx::device_span \(device memory\) and some are host ranges
// ERRORS: 1
#define CALX_DEVICE_ON_HOST 1
#include <calx/calx.hpp>

#include <vector>

int main() {
  double x[4] = {1, 2, 3, 4}, out[4] = {};
  const std::vector<double> y(4, 1.0);
  calx::device_span<double> o(out, 4);
  calx::vmap([](auto a, auto b) { return a * b; }).into(o)(calx::device_span<const double>(x, 4), y);
}
