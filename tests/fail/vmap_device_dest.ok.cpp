// The fix: results in device memory too.
#define CALX_DEVICE_ON_HOST 1
#include <calx/calx.hpp>

int main() {
  double x[4] = {1, 2, 3, 4};
  calx::device_vector<double> out(4);
  calx::device_span<double> o(out);
  calx::vmap([](auto v) { return v * v; }).into(o)(calx::device_span<const double>(x, 4));
}
