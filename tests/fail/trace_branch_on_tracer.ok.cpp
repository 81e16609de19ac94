// The fix: select with calx::where.
#include <calx/calx.hpp>

int main() {
  auto f = [](auto x) { return calx::where(x > 0.0, x, -x); };
  auto p = calx::trace(f, 1.0);
  static_assert(decltype(p)::ir.output_count == 1);
  (void)p;
}
