// A loop in a vmap over device memory: loops have no device kernels yet (docs/cuda.md,
// Limits), and no decomposition a user could give them. The error names the loop and says
// what to do.
// EXPECT: device_code_has_no_loops_yet_run_this_vmap_on_host_memory_for.*loop_op
// ERRORS: 1
#define CALX_DEVICE_ON_HOST 1
#include <calx/calx.hpp>

int main() {
  double x[4] = {1, 2, 3, 4}, out[4] = {};
  calx::device_span<double> o(out, 4);
  const auto f = [](auto v) { return calx::fori_loop(0, 3, [](auto, auto c) { return c * c + 0.5; }, v); };
  calx::vmap(f).into(o)(calx::device_span<const double>(x, 4));
}
