// A traced comparison added to a traced value in place: a mask is true or false, not 1 or 0;
// the same one message as `x + (x > 0)`.
// EXPECT: a mask \(what a comparison gives\) is used as a number
// ERRORS: 1
#include <calx/calx.hpp>

int main() {
  auto f = [](auto x) {
    auto y = x;
    y += (x > 0.0);  // NumPy would promote the mask to 0/1
    return y;
  };
  auto p = calx::trace(f, 1.0);
  (void)p;
}
