// A second argument that is not a policy.
// EXPECT: calx::checkpoint: the second argument must be a policy
// ERRORS: 1
#include <calx/calx.hpp>

int main() {
  const double v = calx::grad([](auto x) {
    auto [y] = std::tuple{calx::checkpoint([](auto z) { return calx::sin(z); }, true)(x)};
    return y;
  })(1.0);
  (void)v;
}
