// A mask (a traced comparison) given to an op that takes a number.
// EXPECT: a mask \(what a comparison gives\) is used as a number
// ERRORS: 1
#include <calx/calx.hpp>

int main() {
  auto f = [](auto x) { return calx::exp(x > 0.0); };
  auto p = calx::trace(f, 1.0);
  (void)p;
}
