// calx::cond on a plain bool whose branches return different precisions (float and
// double): the result's type would depend on the value of the predicate.
// EXPECT: calx::cond: true_fn and false_fn must return the same type
// ERRORS: 1
#include <calx/calx.hpp>
#include <calx/cond.hpp>

int main(int argc, char**) {
  auto r = calx::cond(argc > 1, [](float a) { return a; }, [](float a) { return double(a); }, 1.0f);
  (void)r;
}
