// The fix: a double literal (calx rounds it to the program's precision).
#include <calx/calx.hpp>

#include <tuple>
#include <utility>

constexpr auto first = calx::custom_vjp([](auto x, auto y) {
  return std::pair{x + y * 0.0, [](auto g) { return std::tuple{g, 0.0}; }};
});

int main() {
  double g = calx::grad(first)(2.0, 3.0);
  (void)g;
}
