// The fix: calx::where turns the mask into numbers.
#include <calx/calx.hpp>

int main() {
  auto f = [](auto x) {
    auto y = x;
    y += calx::where(x > 0.0, 1.0, 0.0);
    return y;
  };
  auto p = calx::trace(f, 1.0);
  (void)p;
}
