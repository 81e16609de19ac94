// The fix: a double (or float) argument.
#include <calx/calx.hpp>

int main() {
  auto f = [](auto x) { return x * 2.0; };
  auto p = calx::trace(f, 1.0);
  static_assert(decltype(p)::ir.input_count == 1);
  (void)p;
}
