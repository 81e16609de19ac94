// calx::switch_ with one function where a tuple of branches is expected.
// EXPECT: calx::switch_: the branches must be a std::tuple of functions
// ERRORS: 1
#include <calx/calx.hpp>

int main() {
  auto r = calx::switch_(1, [](auto x) { return x; }, 2.0);
  (void)r;
}
