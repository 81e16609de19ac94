// A misuse met while tracing a loop's body (t[k] on the traced tensor carry): the body's
// program is made after the function's, and must still stop at the misuse (never run on the
// scratch number a refused read gives the trace), in one error: the loop's node hands the
// body's refusal to the function's program.
// EXPECT: calx: t\[k\] on a traced tensor, which has no numbers
// ERRORS: 1
#include <calx/calx.hpp>

int main() {
  const calx::tensor<double, 2> x = calx::tensor<double, 2>{} + 1.5;
  const auto g = calx::grad([](const auto& t) {
    const auto end = calx::fori_loop(0, 3, [](auto, const auto& c) { return c * c[1]; }, t);
    return calx::sum(end);
  })(x);
  (void)g;
}
