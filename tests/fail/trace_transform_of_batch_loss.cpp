// A transform of a function that reduces over a runtime batch, inside another trace (here
// calx::trace itself): the inner function would see a number, not the batch. Refused with
// a message that names the case and the fix.
// EXPECT: applied inside another trace to a function that reduces over
#include <calx/calx.hpp>

#include <vector>

int main() {
  constexpr auto loss = [](auto w, auto xs) { return calx::mean(xs * w); };
  const std::vector<double> xs{0.5, 1.0, 2.0};
  auto p = calx::trace(calx::grad(loss), 0.3, xs);
  (void)p;
}
