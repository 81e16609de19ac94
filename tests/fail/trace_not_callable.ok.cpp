// The fix: one argument per parameter.
#include <calx/calx.hpp>

int main() {
  auto f = [](auto x, auto y) { return x * y; };
  auto p = calx::trace(f, 1.0, 2.0);
  static_assert(decltype(p)::ir.input_count == 2);
  (void)p;
}
