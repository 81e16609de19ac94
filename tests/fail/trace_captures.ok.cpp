// The fix: pass the captured value as an argument.
#include <calx/calx.hpp>

int main() {
  auto f = [](auto x, auto k) { return x * k; };
  auto p = calx::trace(f, 1.0, 2.0);
  static_assert(decltype(p)::ir.input_count == 2);
  (void)p;
}
