// The fix: a column buffer of the batch's length.
#include <calx/calx.hpp>

#include <vector>

int main() {
  constexpr auto f = [](auto x) { return x * 2.0; };
  const std::vector<double> xs{1.0, 2.0, 3.0};
  std::vector<double> out(xs.size());
  calx::vmap(f).into(out)(xs);
}
