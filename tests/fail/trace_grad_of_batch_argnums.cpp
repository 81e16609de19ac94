// calx::trace(calx::grad(loss, argnums), w, xs) with a runtime batch builds grad's program
// from the loss's own trace (detail/call/gradient.hpp); grad's checks still run there, with
// their messages: here an argnums index out of range.
// EXPECT: calx::grad: an index in calx::argnums is out of range
// ERRORS: 1
#include <calx/calx.hpp>

#include <vector>

constexpr auto loss = [](auto w, auto xs) { return calx::mean(xs * w); };

int main() {
  const std::vector<double> xs{0.5, 1.0, 2.0};
  auto p = calx::trace(calx::grad(loss, calx::argnums<5>), 0.3, xs);
  (void)p;
}
