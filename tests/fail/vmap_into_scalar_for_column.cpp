// vmap(f).into(out) where out gives a plain number for an output that has one value per
// sample: the structure of out must match the result's (a column there).
// EXPECT: calx::vmap: .*(into|buffer|column)
// ERRORS: 1
#include <calx/calx.hpp>

#include <vector>

int main() {
  constexpr auto f = [](auto x) { return x * 2.0; };
  const std::vector<double> xs{1.0, 2.0, 3.0};
  double out = 0;
  calx::vmap(f).into(out)(xs);
}
