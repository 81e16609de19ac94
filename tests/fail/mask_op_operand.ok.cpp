// The fix: the mask as 1 or 0 is calx::where(mask, 1.0, 0.0).
#include <calx/calx.hpp>

int main() {
  auto f = [](auto x) { return calx::exp(calx::where(x > 0.0, 1.0, 0.0)); };
  auto p = calx::trace(f, 1.0);
  static_assert(decltype(p)::ir.output_count == 1);
  (void)p;
}
