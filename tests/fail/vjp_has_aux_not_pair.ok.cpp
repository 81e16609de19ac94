// The fix: return std::pair{value, aux}; the result is (value, pullback, aux).
#include <calx/calx.hpp>

#include <utility>

int main() {
  auto f = [](auto x) { return std::pair{x * x, x}; };
  auto [v, pb, aux] = calx::vjp(f, calx::has_aux, 1.0);
  (void)v;
  (void)pb;
  (void)aux;
}
