// A vmap over device memory writing into a host buffer.
// EXPECT: \.into\(out\) mixes memories
// ERRORS: 1
#define CALX_DEVICE_ON_HOST 1
#include <calx/calx.hpp>

#include <vector>

int main() {
  double x[4] = {1, 2, 3, 4};
  std::vector<double> out(4);
  calx::vmap([](auto v) { return v * v; }).into(out)(calx::device_span<const double>(x, 4));
}
