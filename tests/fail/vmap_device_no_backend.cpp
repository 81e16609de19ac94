// calx::vmap over calx::device_span in a file that nvcc does not compile: there is no
// device to run on. One message, naming the fix.
// EXPECT: a calx::device_span argument runs f as a CUDA kernel: compile this file with nvcc
// ERRORS: 1
#include <calx/calx.hpp>

int main() {
  double* x = nullptr;  // device memory, say
  double* out = nullptr;
  calx::device_span<double> o(out, 4);
  calx::vmap([](auto v) { return v * v; }).into(o)(calx::device_span<const double>(x, 4));
}
