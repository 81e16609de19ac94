// The fix: mark the helper constexpr.
#include <calx/calx.hpp>

template <class T>
constexpr T square(const T& x) {
  return x * x;
}

int main() {
  auto f = [](auto x) { return square(x) + 1.0; };
  auto p = calx::trace(f, 1.0);
  static_assert(decltype(p)::ir.output_count == 1);
  (void)p;
}
