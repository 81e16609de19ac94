// The fix: give the device buffer with .into.
#define CALX_DEVICE_ON_HOST 1
#include <calx/calx.hpp>

int main() {
  double x[4] = {1, 2, 3, 4}, out[4] = {};
  calx::device_span<double> o(out, 4);
  calx::vmap([](auto v) { return v * v; }).into(o)(calx::device_span<const double>(x, 4));
}
