// .into() with a temporary container: the results would be written into memory that dies
// with the call. A temporary view (std::span) is fine: see the ok twin.
// EXPECT: calx::vmap: .into\(out\) got a temporary container
// ERRORS: 1
#include <calx/calx.hpp>

#include <vector>

int main() {
  auto f = [](auto x) { return x * x; };
  const std::vector<double> xs{1.0, 2.0};
  calx::vmap(f).into(std::vector<double>(2))(xs);
}
