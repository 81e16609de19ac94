// The fix: one precision for every argument.
#include <calx/calx.hpp>

#include <type_traits>

int main() {
  auto f = [](auto x, auto y) { return x * y; };
  auto p = calx::trace(f, 1.0f, 2.0f);
  static_assert(std::is_same_v<decltype(p)::value_type, float>);
  (void)p;
}
