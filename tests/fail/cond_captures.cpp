// calx::cond with a traced predicate and a branch that captures: each branch is traced once
// into a sub-program, from its type alone.
// EXPECT: calx::cond: with a traced predicate, true_fn and false_fn must be stateless
// ERRORS: 1
#include <calx/calx.hpp>
#include <calx/cond.hpp>

int main() {
  auto g = calx::grad([](auto x) {
    const auto scale = 2.0 * x;
    return calx::cond(x > 0.0, [scale](auto a) { return a * scale; }, [](auto a) { return a; }, x);
  })(1.0);
  (void)g;
}
