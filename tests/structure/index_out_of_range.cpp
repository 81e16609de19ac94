// Run by CTest, expected to fail: indexing a vmap result past its samples stops the program
// in a build with assertions (CALX_ASSERT in calx::batched), instead of reading memory it
// does not own. The index comes from argc so the compiler cannot see it.
#include <calx/calx.hpp>

#include <array>
#include <vector>

int main(int argc, char**) {
  constexpr auto f = [](auto x) { return x * x; };
  const std::vector<double> xs{1.0, 2.0, 3.0};
  const auto r = calx::vmap(f)(xs);
  return static_cast<int>(r[2 + static_cast<std::size_t>(argc)]);  // sample 3 of 3
}
