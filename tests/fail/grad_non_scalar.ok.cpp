// The fix: the Jacobian of a function with several outputs is jacrev's (or jacfwd's).
#include <calx/calx.hpp>

#include <tuple>
#include <type_traits>

int main() {
  auto f = [](auto x) { return std::tuple{x * x, x + 1.0}; };
  auto j = calx::jacrev(f)(2.0);
  static_assert(std::is_same_v<decltype(j), std::tuple<double, double>>);
  (void)j;
}
