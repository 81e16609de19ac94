// The fix: select with calx::where; combine masks with &, |, ~.
#include <calx/calx.hpp>

int main() {
  auto f = [](const auto& t) { return calx::sum(calx::where((t > 0.0) & ~(t > 2.0), t, 0.0)); };
  auto p = calx::trace(f, calx::tensor<double, 3>{});
  static_assert(decltype(p)::ir.output_count == 1);
  (void)p;
}
