// The fix: return std::pair{value, aux}.
#include <calx/calx.hpp>

#include <utility>

int main() {
  auto f = [](auto x) { return std::pair{x * x, x}; };
  auto [g, aux] = calx::grad(f, calx::has_aux)(2.0);
  (void)g;
  (void)aux;
}
