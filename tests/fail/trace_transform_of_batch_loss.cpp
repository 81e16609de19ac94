// A transform of a function that reduces over a runtime batch, called inside a traced
// function of one's own: there the batch argument is a plain traced number, so the inner
// function sees a number, not the batch. Refused with a message that names the case and
// the fix (calx::trace(calx::grad(loss), w, xs) itself works: the transform is traced
// from the function's own trace, tests/vmap.transformed.cpp).
// EXPECT: applied inside another trace to a function that reduces over
#include <calx/calx.hpp>

#include <vector>

constexpr auto loss = [](auto w, auto xs) { return calx::mean(xs * w); };

int main() {
  const std::vector<double> xs{0.5, 1.0, 2.0};
  auto p = calx::trace([](auto w, auto xs) { return calx::grad(loss)(w, xs) * 2.0; }, 0.3, xs);
  (void)p;
}
