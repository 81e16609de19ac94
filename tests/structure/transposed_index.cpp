// Run by CTest, expected to fail: a nested vmap's result is r[sample][element]; indexing it
// transposed, r[element][sample], reads element `sample` of a 3-element std::array, which a
// standard library with assertions (built here with _GLIBCXX_ASSERTIONS) stops.
#include <calx/calx.hpp>

#include <array>
#include <vector>

constexpr auto cube = [](auto x) { return x * x * x; };
constexpr auto inner = [](auto row) { return calx::vmap(cube)(row); };

int main(int argc, char**) {
  const std::vector<std::array<double, 3>> rows(5, {1.0, 2.0, 3.0});
  const auto r = calx::vmap(inner)(rows);
  const std::size_t element = 1, sample = 3 + static_cast<std::size_t>(argc);  // sample 4 of 5
  return static_cast<int>(r[element][sample]);
}
