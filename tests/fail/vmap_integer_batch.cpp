// A batch of integers: integers are passed through, never batched.
// EXPECT: integers are not batched: give them calx::none
// ERRORS: 1
#include <calx/calx.hpp>

#include <vector>

int main() {
  auto f = [](auto x, auto n) { return x * n; };
  const std::vector<double> xs{1.0, 2.0};
  const std::vector<int> ns{1, 2};
  auto r = calx::vmap(f)(xs, ns);
  (void)r;
}
