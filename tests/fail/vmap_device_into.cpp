// A vmap over device memory that would allocate its results: calx does not allocate device
// memory per call.
// EXPECT: a vmap over device memory writes into device buffers you give: call .into\(out\)
// ERRORS: 1
#define CALX_DEVICE_ON_HOST 1
#include <calx/calx.hpp>

int main() {
  double x[4] = {1, 2, 3, 4};
  auto r = calx::vmap([](auto v) { return v * v; })(calx::device_span<const double>(x, 4));
  (void)r;
}
