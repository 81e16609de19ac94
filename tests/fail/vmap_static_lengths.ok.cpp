// Twin of vmap_static_lengths.cpp: std::array batches of one length.
#include <calx/calx.hpp>

#include <array>

int main() {
  constexpr auto f = [](auto x, auto y) { return x * y; };
  const std::array<double, 3> a{1, 2, 3};
  const std::array<double, 3> b{1, 2, 3};
  auto r = calx::vmap(f)(a, b);
  return r[2] == 9.0 ? 0 : 1;
}
