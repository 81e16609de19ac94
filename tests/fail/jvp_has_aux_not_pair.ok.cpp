// The fix: return std::pair{value, aux}; the result is (value, tangent, aux).
#include <calx/calx.hpp>

#include <tuple>
#include <utility>

int main() {
  auto f = [](auto x) { return std::pair{x * x, x}; };
  auto [v, t, aux] = calx::jvp(f, std::tuple{1.0}, std::tuple{1.0}, calx::has_aux);
  (void)v;
  (void)t;
  (void)aux;
}
