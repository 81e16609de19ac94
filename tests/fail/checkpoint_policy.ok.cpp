// The fix: a policy of calx::policy.
#include <calx/calx.hpp>

int main() {
  const double v = calx::grad([](auto x) {
    auto [y] = std::tuple{calx::checkpoint([](auto z) { return calx::sin(z); }, calx::policy::everything_saveable)(x)};
    return y;
  })(1.0);
  (void)v;
}
