// An if on a traced comparison: the function is traced once for all inputs, so it
// cannot branch on values.
// EXPECT: use calx::where
// ERRORS: 1
#include <calx/calx.hpp>

int main() {
  auto f = [](auto x) {
    if (x > 0.0) return x;
    return -x;
  };
  auto p = calx::trace(f, 1.0);
  (void)p;
}
