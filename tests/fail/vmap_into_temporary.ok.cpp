// A temporary std::span over a named buffer: the results land in the buffer.
#include <calx/calx.hpp>

#include <span>
#include <vector>

int main() {
  auto f = [](auto x) { return x * x; };
  const std::vector<double> xs{1.0, 2.0};
  std::vector<double> out(2);
  calx::vmap(f).into(std::span<double>(out))(xs);
}
