// The fix: map over a std::array (or a runtime batch).
#include <calx/calx.hpp>

#include <array>

int main() {
  constexpr auto f = [](auto x) { return calx::sum(calx::vmap([](auto y) { return y * y; })(x)); };
  auto g = calx::grad(f)(std::array{2.0, 3.0});
  (void)g;
}
