// calx::cond whose branches return different types (a scalar and a pair): a cond is one
// value, the same whichever branch runs.
// EXPECT: calx::cond: true_fn and false_fn must return the same type
// ERRORS: 1
#include <calx/calx.hpp>
#include <calx/cond.hpp>

#include <utility>

int main() {
  constexpr auto f = [](auto x) {
    return calx::cond(x > 0.0, [](auto a) { return a * a; }, [](auto a) { return std::pair{a, a}; }, x);
  };
  auto g = calx::grad(f)(1.0);
  (void)g;
}
