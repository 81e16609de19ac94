// Two std::array batches of different lengths: both lengths are known at compile time, so
// the mismatch is refused there rather than thrown at run time.
// EXPECT: calx::vmap: .*same length
// ERRORS: 1
#include <calx/calx.hpp>

#include <array>

int main() {
  constexpr auto f = [](auto x, auto y) { return x * y; };
  const std::array<double, 3> a{1, 2, 3};
  const std::array<double, 4> b{1, 2, 3, 4};
  auto r = calx::vmap(f)(a, b);
  (void)r;
}
