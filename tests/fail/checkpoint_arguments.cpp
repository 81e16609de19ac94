// An integer argument on traced values: a checkpoint's operands are real values.
// EXPECT: calx::checkpoint: on traced values the arguments must be real
// ERRORS: 1
#include <calx/calx.hpp>

int main() {
  const double v = calx::grad([](auto x) {
    auto [y] = std::tuple{calx::checkpoint([](auto z, int k) { return calx::sin(z) * double(k); })(x, 3)};
    return y;
  })(1.0);
  (void)v;
}
