// The fix: std::pair{result, backward}.
#include <calx/calx.hpp>

#include <tuple>
#include <utility>

constexpr auto twice = calx::custom_vjp([](auto x) {
  return std::pair{2.0 * x, [](auto g) { return std::tuple{2.0 * g}; }};
});

int main() {
  double g = calx::grad(twice)(2.0);
  (void)g;
}
