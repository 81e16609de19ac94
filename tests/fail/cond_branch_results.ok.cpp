// The fix: both branches return one scalar.
#include <calx/calx.hpp>
#include <calx/cond.hpp>

int main() {
  constexpr auto f = [](auto x) {
    return calx::cond(x > 0.0, [](auto a) { return a * a; }, [](auto a) { return a + a; }, x);
  };
  auto g = calx::grad(f)(1.0);
  (void)g;
}
