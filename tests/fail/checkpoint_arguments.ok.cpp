// The fix: a real argument (or a constant inside the function).
#include <calx/calx.hpp>

int main() {
  const double v = calx::grad([](auto x) {
    auto [y] = std::tuple{calx::checkpoint([](auto z, auto k) { return calx::sin(z) * k; })(x, 3.0)};
    return y;
  })(1.0);
  (void)v;
}
